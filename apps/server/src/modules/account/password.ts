import { badRequest } from '../../http/problem';
import { clearLoginFailures } from '../../identity/brute-force';
import { checkPasswordPolicy } from '../../identity/password-policy';
import { hashPassword, verifyPassword } from '../../identity/passwords';
import { mailUser } from '../../mail/account-mail';
import { retireLinks } from '../../mail/links';
import { lockUser, passwordHashOf, writePasswordHash, findProfile } from './queries';
import { stampProof } from './reverification';
import { recordSecurityChange } from './security-record';
import { bySelf, withGuess, type AccountDeps, type AccountUser } from './service';
import { endSessions } from './sessions';

/**
 * Changes the signed-in user's password. The current one is required and counted as a
 * sign-in attempt is; the new one must pass the tenant's policy. Every other session of the
 * user ends (whoever knew the old password is signed out everywhere), this one stays; any
 * reset link still out is retired, and the user is told by mail.
 */
export async function changePassword(
  deps: AccountDeps,
  user: AccountUser,
  input: { currentPassword: string; newPassword: string; acceptLanguage?: string },
): Promise<{ endedSessions: number }> {
  const { db } = deps;
  await withGuess(deps, user, async () => {
    const stored = await passwordHashOf(db, user.tenantId, user.userId);
    if (!(await verifyPassword(stored, input.currentPassword))) {
      throw badRequest(
        'account.current_password_wrong',
        {},
        { currentPassword: 'account.current_password_wrong' },
      );
    }
  });
  await clearLoginFailures(db, user.userId);
  // The current password is a proof of the user: the session's next security change is recent.
  await stampProof(db, user);
  const profile = await findProfile(db, user.tenantId, user.userId);
  await checkPasswordPolicy(db, {
    tenantId: user.tenantId,
    password: input.newPassword,
    email: profile?.email ?? user.email,
    firstName: profile?.firstName,
    lastName: profile?.lastName,
    field: 'newPassword',
  });
  // Hashing is slow on purpose: done before the transaction so it holds no locks meanwhile.
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await lockUser(tx, user.tenantId, user.userId);
    await writePasswordHash(tx, user.tenantId, user.userId, passwordHash);
    await retireLinks(tx, user.userId);
    const endedSessions = await endSessions(tx, user, { allBut: user.sessionId });
    await mailUser(tx, deps.config.publicUrl, {
      userId: user.userId,
      kind: 'passwordChanged',
      acceptLanguage: input.acceptLanguage,
    });
    await recordSecurityChange(tx, {
      ...bySelf(user),
      after: { password: 'changed', endedSessions },
    });
    return { endedSessions };
  });
}
