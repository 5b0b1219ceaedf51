import type {
  AccountProfile,
  AccountProfileUpdate,
  SecondFactors,
  TotpSetup,
} from '@tc/contract/security';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError, badRequest, conflict, notFound } from '../../http/problem';
import {
  failLoginAttempt,
  startLoginAttempt,
  withdrawLoginAttempt,
} from '../../identity/brute-force';
import { notifySecurityEvent } from '../../identity/second-factor/notifications';
import {
  remainingRecoveryCodes,
  removeRecoveryCodes,
  replaceRecoveryCodes,
} from '../../identity/second-factor/recovery-codes';
import type { SecretBox } from '../../identity/second-factor/secret-box';
import {
  hasSecondFactor,
  secondFactorRequired,
  secondFactorState,
  tenantMfaPolicy,
} from '../../identity/second-factor/status';
import {
  hasConfirmedTotp,
  removeTotp,
  startTotpEnrolment,
  useTotpCode,
} from '../../identity/second-factor/totp';
import {
  deleteAllPasskeys,
  findProfile,
  listPasskeys,
  lockUser,
  tenantOf,
  writeProfile,
} from './queries';
import { recordSecurityChange } from './security-record';

/** What the account's services need of the app. */
export interface AccountDeps {
  db: Database;
  config: Config;
  mfaSecrets: SecretBox;
}

/** The signed-in user an account request is for, as the token says. */
export interface AccountUser {
  tenantId: string;
  userId: string;
  email: string;
  permissions: readonly string[];
  sessionId: string;
}

const ownerOf = (user: AccountUser) => ({ id: user.userId, tenantId: user.tenantId });
/** A change the user made to their own account, as the audit records it. */
export const bySelf = (user: AccountUser) => ({
  tenantId: user.tenantId,
  actorId: user.userId,
  userId: user.userId,
});

/**
 * Checks one guess of a secret (the current password, an authenticator code) as an attempt in
 * the account's lockout, as a sign-in does: a stolen access token must not turn these routes
 * into an unlimited guessing oracle. Refused unchecked while the account is locked; `check`
 * throws when the guess is wrong, which counts as a failure (so does any other error while
 * checking: a guess is never free). A right guess leaves the count as it was, so right guesses
 * that arrive together are not taken for quick failures; whoever proved the password clears
 * the failures itself.
 */
export async function withGuess<T>(
  deps: AccountDeps,
  user: AccountUser,
  check: () => Promise<T>,
): Promise<T> {
  const attempt = await startLoginAttempt(deps.db, deps.config.bruteForce, {
    id: user.userId,
    tenantId: user.tenantId,
  });
  if (!attempt.allowed) throw new AppError(429, 'account.locked');
  try {
    const result = await check();
    await withdrawLoginAttempt(deps.db, attempt);
    return result;
  } catch (error) {
    await failLoginAttempt(deps.db, deps.config.bruteForce, attempt);
    throw error;
  }
}

export async function getProfile(db: Database, user: AccountUser): Promise<AccountProfile> {
  const profile = await findProfile(db, user.tenantId, user.userId);
  if (!profile) throw notFound('user.not_found');
  return profile;
}

export async function updateProfile(
  db: Database,
  user: AccountUser,
  data: AccountProfileUpdate,
): Promise<AccountProfile> {
  return db.transaction(async (tx) => {
    const before = await getProfile(tx, user);
    await writeProfile(tx, user.tenantId, user.userId, data);
    const after = await getProfile(tx, user);
    await recordSecurityChange(tx, { ...bySelf(user), before, after });
    return after;
  });
}

/** What second factors a user has, and whether the tenant's policy requires one of them. */
export async function secondFactorsOf(
  db: Database,
  owner: { tenantId: string; userId: string },
  permissions: readonly string[],
): Promise<SecondFactors> {
  const [state, passkeys, policy] = await Promise.all([
    secondFactorState(db, owner.userId),
    listPasskeys(db, owner.userId),
    tenantMfaPolicy(db, owner.tenantId),
  ]);
  return {
    totp: state.totp,
    recoveryCodesLeft: state.recoveryCodesLeft,
    passkeys,
    required: secondFactorRequired(policy, permissions),
  };
}

/**
 * After a factor was removed in `tx`: refuses (rolling the removal back) when the tenant's
 * policy requires a second factor of this user and none is left. The user's row is locked
 * first, so two removals at once are judged one after the other.
 */
export async function requireFactorLeft(tx: Database, user: AccountUser): Promise<void> {
  const policy = await tenantMfaPolicy(tx, user.tenantId);
  if (!secondFactorRequired(policy, user.permissions)) return;
  if (!hasSecondFactor(await secondFactorState(tx, user.userId))) {
    throw conflict('mfa.last_factor_required');
  }
}

export async function startTotp(deps: AccountDeps, user: AccountUser): Promise<TotpSetup> {
  return deps.db.transaction(async (tx) => {
    const tenant = await tenantOf(tx, user.tenantId);
    const enrolment = await startTotpEnrolment(
      tx,
      deps.mfaSecrets,
      { ...ownerOf(user), email: user.email },
      tenant?.name ?? '',
    );
    if (!enrolment) throw conflict('mfa.totp_exists');
    await recordSecurityChange(tx, { ...bySelf(user), after: { totp: 'started' } });
    return enrolment;
  });
}

/**
 * Confirms the enrolment with the app's first code and answers ten new recovery codes. A
 * wrong code counts toward the lockout; a right one does not clear it, since the caller chose
 * the secret it proves and a password guesser could otherwise wipe their own count.
 */
export async function confirmTotp(
  deps: AccountDeps,
  user: AccountUser,
  input: { code: string; acceptLanguage?: string },
): Promise<string[]> {
  if (await hasConfirmedTotp(deps.db, user.userId)) throw conflict('mfa.totp_exists');
  return withGuess(deps, user, () => confirmTotpCode(deps, user, input));
}

/** Checks the first code of a new authenticator app and sets it up, with recovery codes. */
function confirmTotpCode(
  deps: AccountDeps,
  user: AccountUser,
  input: { code: string; acceptLanguage?: string },
): Promise<string[]> {
  return deps.db.transaction(async (tx) => {
    await lockUser(tx, user.tenantId, user.userId);
    const code = input.code.replace(/\s/g, '');
    if (!(await useTotpCode(tx, deps.mfaSecrets, ownerOf(user), code, false))) {
      throw badRequest('mfa.code_wrong', {}, { code: 'mfa.code_wrong' });
    }
    const recoveryCodes = await replaceRecoveryCodes(tx, ownerOf(user));
    await notifySecurityEvent(tx, deps.config.publicUrl, {
      userId: user.userId,
      event: 'totpAdded',
      acceptLanguage: input.acceptLanguage,
    });
    await recordSecurityChange(tx, {
      ...bySelf(user),
      before: { totp: false },
      after: { totp: true, recoveryCodesLeft: recoveryCodes.length },
    });
    return recoveryCodes;
  });
}

export async function deleteTotp(
  deps: AccountDeps,
  user: AccountUser,
  acceptLanguage: string | undefined,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await lockUser(tx, user.tenantId, user.userId);
    const hadCodes = await remainingRecoveryCodes(tx, user.userId);
    // An enrolment never confirmed is no factor: it stays, to be confirmed or started again.
    if (!(await hasConfirmedTotp(tx, user.userId))) throw notFound('mfa.totp_missing');
    await removeTotp(tx, user.userId);
    await removeRecoveryCodes(tx, user.userId);
    await requireFactorLeft(tx, user);
    await notifySecurityEvent(tx, deps.config.publicUrl, {
      userId: user.userId,
      event: 'totpRemoved',
      acceptLanguage,
    });
    await recordSecurityChange(tx, {
      ...bySelf(user),
      before: { totp: true, recoveryCodesLeft: hadCodes },
      after: { totp: false, recoveryCodesLeft: 0 },
    });
  });
}

/** Ten new recovery codes in place of the old ones; they come with a confirmed app only. */
export async function regenerateRecoveryCodes(
  deps: AccountDeps,
  user: AccountUser,
): Promise<string[]> {
  return deps.db.transaction(async (tx) => {
    await lockUser(tx, user.tenantId, user.userId);
    if (!(await hasConfirmedTotp(tx, user.userId))) {
      throw conflict('mfa.recovery_codes_need_totp');
    }
    const before = await remainingRecoveryCodes(tx, user.userId);
    const recoveryCodes = await replaceRecoveryCodes(tx, ownerOf(user));
    await recordSecurityChange(tx, {
      ...bySelf(user),
      before: { recoveryCodesLeft: before },
      after: { recoveryCodesLeft: recoveryCodes.length, recoveryCodesReplaced: true },
    });
    return recoveryCodes;
  });
}

/**
 * An administrator's reset of a user's second factors: the authenticator app, the recovery
 * codes and every passkey go, and the user is told by mail. If the tenant requires a second
 * factor, the user enrols again at the next sign-in.
 */
export async function resetSecondFactors(
  deps: Pick<AccountDeps, 'db' | 'config'>,
  input: { tenantId: string; userId: string; actorId: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await lockUser(tx, input.tenantId, input.userId))) throw notFound('user.not_found');
    const before = await secondFactorState(tx, input.userId);
    await removeTotp(tx, input.userId);
    await removeRecoveryCodes(tx, input.userId);
    await deleteAllPasskeys(tx, input.userId);
    await notifySecurityEvent(tx, deps.config.publicUrl, {
      userId: input.userId,
      event: 'secondFactorsReset',
    });
    await recordSecurityChange(tx, {
      ...input,
      before: { secondFactors: before },
      after: { secondFactors: { totp: false, recoveryCodesLeft: 0, passkeys: 0 } },
    });
  });
}
