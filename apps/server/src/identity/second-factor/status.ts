import { sql } from 'drizzle-orm';
import type { MfaPolicy } from '@tc/contract/security';
import type { Database } from '../../db/database';

type Executor = Pick<Database, 'execute'>;

/** What second factors a user has: an authenticator app, recovery codes left, passkeys. */
export interface SecondFactorState {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: number;
}

/** One statement: read at every password sign-in, so kept to one round trip. */
export async function secondFactorState(db: Executor, userId: string): Promise<SecondFactorState> {
  const result = (await db.execute(sql`
    select
      exists (select 1 from totp_secrets where user_id = ${userId} and confirmed_at is not null)
        as totp,
      (select count(*)::int from recovery_codes where user_id = ${userId} and used_at is null)
        as "recoveryCodesLeft",
      (select count(*)::int from passkeys where user_id = ${userId}) as passkeys`)) as unknown as {
    rows: SecondFactorState[];
  };
  return result.rows[0]!;
}

export const hasSecondFactor = (state: SecondFactorState) => state.totp || state.passkeys > 0;

/**
 * An administrator, for the policy "required for administrators": whoever may change anything
 * in the tenant, i.e. holds any write permission (the built-in Admin role holds them all).
 */
export const isAdministrator = (permissions: readonly string[]) =>
  permissions.some((permission) => permission.endsWith(':write'));

export function secondFactorRequired(policy: MfaPolicy, permissions: readonly string[]): boolean {
  if (policy === 'everyone') return true;
  return policy === 'admins' && isAdministrator(permissions);
}

export async function tenantMfaPolicy(db: Executor, tenantId: string): Promise<MfaPolicy> {
  const result = (await db.execute(
    sql`select mfa_policy as "mfaPolicy" from tenants where id = ${tenantId}`,
  )) as unknown as { rows: Array<{ mfaPolicy: MfaPolicy }> };
  return result.rows[0]?.mfaPolicy ?? 'optional';
}

/** What the tenant's policy asks of a user's sessions now: the policy and their factors. */
export interface SecondFactorStanding {
  policy: MfaPolicy;
  /** An authenticator app or a passkey (recovery codes come with the app). */
  enrolled: boolean;
}

/** One statement, read at every refresh of the provider's grants. */
export async function secondFactorStanding(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<SecondFactorStanding> {
  const result = (await db.execute(sql`
    select mfa_policy as policy,
      exists (select 1 from totp_secrets where user_id = ${userId} and confirmed_at is not null)
        or exists (select 1 from passkeys where user_id = ${userId}) as enrolled
    from tenants where id = ${tenantId}`)) as unknown as { rows: SecondFactorStanding[] };
  return result.rows[0] ?? { policy: 'optional', enrolled: false };
}

/**
 * Whether a session opened earlier may still be refreshed: a sign-in today would ask this
 * user to enrol first (a policy made stricter since), so a refresh may not spare them that.
 */
export const refreshAllowedByPolicy = (
  standing: SecondFactorStanding,
  permissions: readonly string[],
) => standing.enrolled || !secondFactorRequired(standing.policy, permissions);

/** The refusal's words, the same for both refresh paths (ours and the provider's). */
export const SECOND_FACTOR_NOW_REQUIRED =
  'A second factor is now required for this account: sign in again to set one up.';
