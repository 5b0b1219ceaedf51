import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';

type Executor = Pick<Database, 'execute'>;

/**
 * What waits between two requests of the hosted sign-in: a password sign-in waiting for its
 * second factor, or for the enrolment the tenant requires; or a passkey challenge; or the
 * nonce a Google credential must carry.
 */
export type SignInStepKind = 'second-factor' | 'enrol' | 'passkey-challenge' | 'google-nonce';

/** How long a step waits: time to open the authenticator app, not to walk away. */
export const SIGN_IN_STEP_SECONDS = 300;

/** The keys of the steps of one interaction of the hosted sign-in page. */
export const interactionStepKey = (uid: string) => `interaction:${uid}`;
export const passkeyChallengeKey = (uid: string) => `passkey:${uid}`;

export interface SignInStep {
  userId: string | null;
  data: Record<string, unknown>;
}

interface StepAddress {
  key: string;
  tenantId: string;
  kind: SignInStepKind;
}

const rowsOf = (result: unknown) => (result as { rows: SignInStep[] }).rows;

/**
 * Saves a step under its key, replacing what was there: a password sent again, or a new
 * challenge, starts the wait afresh. The tenant's expired steps go at the same time, so
 * abandoned sign-ins leave nothing behind for long.
 */
export async function saveSignInStep(
  db: Executor,
  step: StepAddress & { userId: string | null; data: Record<string, unknown> },
): Promise<void> {
  const expiresAt = new Date(Date.now() + SIGN_IN_STEP_SECONDS * 1000).toISOString();
  await db.execute(sql`
    with expired as (
      delete from sign_in_steps
      where tenant_id = ${step.tenantId} and expires_at < now() and key <> ${step.key}
    )
    insert into sign_in_steps (key, tenant_id, user_id, kind, data, expires_at)
    values (${step.key}, ${step.tenantId}, ${step.userId}, ${step.kind},
      ${JSON.stringify(step.data)}::jsonb, ${expiresAt})
    on conflict (key) do update set tenant_id = excluded.tenant_id, user_id = excluded.user_id,
      kind = excluded.kind, data = excluded.data, expires_at = excluded.expires_at`);
}

/** The step waiting under this key, of this kind and tenant, unless it has expired. */
export async function findSignInStep(
  db: Executor,
  address: StepAddress,
): Promise<SignInStep | undefined> {
  const [step] = rowsOf(
    await db.execute(sql`
      select user_id as "userId", data from sign_in_steps
      where key = ${address.key} and tenant_id = ${address.tenantId}
        and kind = ${address.kind} and expires_at > now()`),
  );
  return step;
}

/**
 * Takes the step, in one statement: of requests finishing the same step at once, exactly one
 * gets it, so a sign-in finishes once and a challenge is answered once.
 */
export async function takeSignInStep(
  db: Executor,
  address: StepAddress,
): Promise<SignInStep | undefined> {
  const [step] = rowsOf(
    await db.execute(sql`
      delete from sign_in_steps
      where key = ${address.key} and tenant_id = ${address.tenantId} and kind = ${address.kind}
      returning user_id as "userId", data, expires_at > now() as live`),
  ) as Array<SignInStep & { live: boolean }>;
  return step?.live ? { userId: step.userId, data: step.data } : undefined;
}

/** Forgets whatever waits under the key (a sign-in that finished another way). */
export async function dropSignInStep(db: Executor, key: string, tenantId: string): Promise<void> {
  await db.execute(sql`delete from sign_in_steps where key = ${key} and tenant_id = ${tenantId}`);
}
