import { sql } from 'drizzle-orm';
import type { MfaPolicy } from '@tc/contract/security';
import type { SecondFactorMethod } from '@tc/contract/sign-in-steps';
import type { Database } from '../../db/database';
import type { SessionOrigin } from '../openid/browser-id';
import { describeBrowser, notifySecurityEvent } from './notifications';
import { useRecoveryCode } from './recovery-codes';
import type { SecretBox } from './secret-box';
import { secondFactorRequired } from './status';
import { useTotpCode } from './totp';

/**
 * What a sign-in needs to know once the password is right, read in one statement: the user's
 * second factors, the tenant's policy, and whether the browser is one the user's sessions
 * came from before.
 */
export interface SignInFacts {
  totp: boolean;
  passkeys: boolean;
  recoveryCodes: boolean;
  policy: MfaPolicy;
  notifyNewBrowser: boolean;
  /** Whether the user had any session before, even an ended one. */
  hadSession: boolean;
  /** Whether one of them came from this browser. */
  knownBrowser: boolean;
}

export async function signInFacts(
  db: Pick<Database, 'execute'>,
  userId: string,
  browserHash: string | null,
): Promise<SignInFacts> {
  const result = (await db.execute(sql`
    select
      exists (select 1 from totp_secrets where user_id = ${userId} and confirmed_at is not null)
        as totp,
      exists (select 1 from passkeys where user_id = ${userId}) as passkeys,
      exists (select 1 from recovery_codes where user_id = ${userId} and used_at is null)
        as "recoveryCodes",
      tenants.mfa_policy as policy,
      users.notify_new_browser as "notifyNewBrowser",
      exists (select 1 from sessions where user_id = ${userId}) as "hadSession",
      exists (
        select 1 from sessions where user_id = ${userId} and browser_hash = ${browserHash}
      ) as "knownBrowser"
    from users join tenants on tenants.id = users.tenant_id
    where users.id = ${userId}`)) as unknown as { rows: SignInFacts[] };
  const facts = result.rows[0];
  if (!facts) throw new Error('signInFacts: the user is gone');
  return facts;
}

/** Whether the user must give a second factor after the password. */
export const asksSecondFactor = (facts: SignInFacts) => facts.totp || facts.passkeys;

/** Whether the tenant requires a second factor the user has not set up yet. */
export const mustEnrol = (facts: SignInFacts, permissions: readonly string[]) =>
  !asksSecondFactor(facts) && secondFactorRequired(facts.policy, permissions);

/** The ways the sign-in page offers to give the second factor. */
export function secondFactorMethods(facts: SignInFacts): SecondFactorMethod[] {
  const methods: SecondFactorMethod[] = [];
  if (facts.totp) methods.push('totp');
  if (facts.totp || facts.recoveryCodes) methods.push('recovery-code');
  if (facts.passkeys) methods.push('passkey');
  return methods;
}

/**
 * Checks a typed second factor: the authenticator app's code, else one of the recovery codes,
 * which is used up (and its use told to the user in the same transaction). Each is single
 * use, checked and spent in one statement.
 */
export async function useSecondFactorCode(
  deps: { db: Database; box: SecretBox; publicUrl: string },
  user: { id: string; tenantId: string },
  code: string,
  acceptLanguage: string | undefined,
): Promise<boolean> {
  const { db, box, publicUrl } = deps;
  // Apps show the code as "123 456"; recovery codes ignore spaces and dashes themselves.
  if (await useTotpCode(db, box, user, code.replaceAll(' ', ''), true)) return true;
  return db.transaction(async (tx) => {
    if (!(await useRecoveryCode(tx, user, code))) return false;
    await notifySecurityEvent(tx, publicUrl, {
      userId: user.id,
      event: 'recoveryCodeUsed',
      acceptLanguage,
    });
    return true;
  });
}

/**
 * Tells the user of a sign-in from a browser none of their sessions came from, unless it is
 * their very first sign-in or they turned these mails off. `facts` were read before the
 * session of this sign-in was opened.
 */
export async function noticeNewBrowser(
  db: Database,
  publicUrl: string,
  input: {
    userId: string;
    facts: SignInFacts;
    origin: SessionOrigin;
    acceptLanguage: string | undefined;
  },
): Promise<void> {
  const { facts, origin } = input;
  if (!facts.notifyNewBrowser || !facts.hadSession || facts.knownBrowser) return;
  await notifySecurityEvent(db, publicUrl, {
    userId: input.userId,
    event: 'newBrowser',
    detail: describeBrowser(origin.userAgent ?? undefined, origin.ipAddress ?? undefined),
    acceptLanguage: input.acceptLanguage,
  });
}
