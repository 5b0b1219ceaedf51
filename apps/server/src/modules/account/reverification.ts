import { sql } from 'drizzle-orm';
import type { ReverifyRequest } from '@tc/contract/security';
import { badRequest, conflict, forbidden, notFound, type AppError } from '../../http/problem';
import { clearLoginFailures } from '../../identity/brute-force';
import { verifyPassword } from '../../identity/passwords';
import {
  passkeyAssertionSchema,
  passkeySignInOptions,
  verifyPasskeySignIn,
} from '../../identity/second-factor/passkey-sign-in';
import { relyingPartyFor, type RelyingParty } from '../../identity/second-factor/relying-party';
import { useSecondFactorCode } from '../../identity/second-factor/sign-in-facts';
import { passwordHashOf, tenantOf } from './queries';
import { withGuess, type AccountDeps, type AccountUser } from './service';

/*
 * Re-verification (docs/decisions/0018-recent-proof-for-account-security.md): a security
 * change of the account (a factor added, replaced or removed, recovery codes shown) needs a
 * proof of the user within the last `reverifyWindowSeconds`, not just a valid access token.
 * The session's sign-in is such a proof at its time; a later one is stamped on the session
 * (`reverified_at`, which once set replaces the sign-in's time: a proof is never older than it).
 */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Refuses with 403 auth.reverification_required unless this session proved its user lately. */
export async function requireRecentProof(deps: AccountDeps, user: AccountUser): Promise<void> {
  // The database's clock alone: the stamps are its now(), whichever process wrote them.
  const [row] = rowsOf<{ recent: boolean }>(
    await deps.db.execute(sql`
      select coalesce(reverified_at, created_at)
          > now() - make_interval(secs => ${deps.config.reverifyWindowSeconds}) as recent
      from sessions
      where id = ${user.sessionId} and user_id = ${user.userId} and tenant_id = ${user.tenantId}`),
  );
  if (!row?.recent) throw forbidden('auth.reverification_required');
}

/** Marks the session as having proved its user now (a re-verification, a password change). */
export async function stampProof(db: AccountDeps['db'], user: AccountUser): Promise<void> {
  await db.execute(sql`
    update sessions set reverified_at = now()
    where id = ${user.sessionId} and user_id = ${user.userId} and tenant_id = ${user.tenantId}`);
}

/** Ends the session's recent proof, its sign-in's included (after a wrong proof). */
async function voidProof(db: AccountDeps['db'], user: AccountUser): Promise<void> {
  await db.execute(sql`
    update sessions set reverified_at = '-infinity'
    where id = ${user.sessionId} and user_id = ${user.userId} and tenant_id = ${user.tenantId}`);
}

/** Where the session's passkey challenge is kept between the options and the assertion. */
const challengeUid = (user: AccountUser) => `reverify:${user.sessionId}`;

async function relyingPartyOf(
  deps: AccountDeps,
  user: AccountUser,
  origin: string | undefined,
): Promise<RelyingParty> {
  const tenant = await tenantOf(deps.db, user.tenantId);
  if (!tenant) throw notFound('user.not_found');
  const relyingParty = relyingPartyFor(tenant, deps.config.publicUrl, origin);
  if (!relyingParty) {
    const domain = tenant.domain ?? new URL(deps.config.publicUrl).hostname;
    throw conflict('passkey.wrong_address', { domain });
  }
  return relyingParty;
}

/** WebAuthn request options for a passkey of the user's, good once for this session. */
export async function reverifyOptions(
  deps: AccountDeps,
  user: AccountUser,
  origin: string | undefined,
): Promise<Record<string, unknown>> {
  const rp = await relyingPartyOf(deps, user, origin);
  const options = await passkeySignInOptions(deps.db, {
    tenantId: user.tenantId,
    uid: challengeUid(user),
    rp,
  });
  return { ...options };
}

async function passkeyProves(
  deps: AccountDeps,
  user: AccountUser,
  passkey: Record<string, unknown>,
  origin: string | undefined,
): Promise<boolean> {
  const assertion = passkeyAssertionSchema.safeParse(passkey);
  if (!assertion.success) throw badRequest('passkey.not_verified');
  const rp = await relyingPartyOf(deps, user, origin);
  const owner = await verifyPasskeySignIn(deps.db, {
    tenantId: user.tenantId,
    uid: challengeUid(user),
    rp,
    assertion: assertion.data,
  });
  return owner === user.userId;
}

/** Why a proof failed, on the field that carried it. */
async function checkProof(
  deps: AccountDeps,
  user: AccountUser,
  proof: ReverifyRequest,
  context: { origin: string | undefined; acceptLanguage: string | undefined },
): Promise<AppError | undefined> {
  if (proof.password !== undefined) {
    const stored = await passwordHashOf(deps.db, user.tenantId, user.userId);
    if (await verifyPassword(stored, proof.password)) return undefined;
    return badRequest(
      'account.current_password_wrong',
      {},
      { password: 'account.current_password_wrong' },
    );
  }
  if (proof.code !== undefined) {
    const owner = { id: user.userId, tenantId: user.tenantId };
    const factorDeps = { db: deps.db, box: deps.mfaSecrets, publicUrl: deps.config.publicUrl };
    if (await useSecondFactorCode(factorDeps, owner, proof.code, context.acceptLanguage)) {
      return undefined;
    }
    return badRequest('mfa.code_wrong', {}, { code: 'mfa.code_wrong' });
  }
  if (
    proof.passkey !== undefined &&
    (await passkeyProves(deps, user, proof.passkey, context.origin))
  ) {
    return undefined;
  }
  return badRequest('passkey.not_verified');
}

/**
 * Checks one proof and stamps the session. Each proof is counted toward the account's lockout
 * before it is checked, as a sign-in's is, so that a stolen access token gains no unthrottled
 * oracle; a wrong one stays counted, and only the right password clears the count (as a
 * password change does: a code or passkey alone is one factor, which a sign-in never clears on).
 * A wrong proof also ends the session's recent one: whoever sent it is not sure of the
 * account's secrets, so the next security change asks again (sudo modes do the same).
 */
export async function reverify(
  deps: AccountDeps,
  user: AccountUser,
  proof: ReverifyRequest,
  context: { origin: string | undefined; acceptLanguage: string | undefined },
): Promise<void> {
  await withGuess(deps, user, async () => {
    const failure = await checkProof(deps, user, proof, context);
    if (failure) {
      await voidProof(deps.db, user);
      throw failure;
    }
  });
  if (proof.password !== undefined) await clearLoginFailures(deps.db, user.userId);
  await stampProof(deps.db, user);
}
