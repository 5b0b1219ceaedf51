import type { SignupRequest } from '@tc/contract/account';
import type { TenantInfo } from '@tc/contract/identity';
import { MEMBER_ROLE } from '@tc/contract/permissions';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { uniqueViolation } from '../../db/errors';
import { forbidden, notFound } from '../../http/problem';
import { clearLoginFailures } from '../../identity/brute-force';
import { checkPasswordPolicy } from '../../identity/password-policy';
import { hashPassword } from '../../identity/passwords';
import { revokeUserSessions } from '../../identity/sessions';
import { mailUser } from '../../mail/account-mail';
import { consumeActionToken, retireLinks } from '../../mail/links';
import { fromAcceptLanguage } from '../../mail/locale';
import { recordChange } from '../audit';
import { builtInRoleId } from '../roles';
import { findUserRow } from '../users';
import {
  claimUnverifiedUser,
  findUserByEmail,
  insertSignedUpUser,
  markEmailVerified,
  realmNameOf,
  setVerifiedPassword,
} from './queries';

export interface AccountContext {
  db: Database;
  config: Config;
  /** The tenant the request is for (identifyTenant: Tenant-ID header, else host). */
  tenantId: string;
  acceptLanguage?: string;
}

/** A reset link to the active account with this address, if there is one; else nothing. */
async function mailActiveAccount(
  ctx: AccountContext,
  email: string,
  kind: 'reset' | 'signupExisting',
): Promise<void> {
  const user = await findUserByEmail(ctx.db, ctx.tenantId, email);
  if (!user || user.status !== 'active') return;
  await ctx.db.transaction((tx) =>
    mailUser(tx, ctx.config.publicUrl, {
      userId: user.id,
      kind,
      purpose: 'reset',
      acceptLanguage: ctx.acceptLanguage,
    }),
  );
}

/**
 * Queues a reset link if the address belongs to an active user of the tenant. The caller
 * answers the same either way (no account enumeration, OWASP Forgot Password Cheat Sheet).
 */
export async function forgotPassword(ctx: AccountContext & { email: string }): Promise<void> {
  await mailActiveAccount(ctx, ctx.email, 'reset');
}

/**
 * Completes a reset or an invitation: sets the password, marks the address verified (the
 * link reached that mailbox), ends every session, retires every other link and, for a reset,
 * queues the "password changed" notice. A password the tenant's policy refuses (checked once
 * the link says whose it is) rolls it all back and leaves the link usable.
 *
 * On an unverified account this is a claim (see claimUnverifiedAccount): the password typed
 * at sign-up is replaced and its verification link retired along with the rest.
 */
export async function resetPassword(
  ctx: AccountContext & { token: string; password: string },
): Promise<{ email: string; realm: string }> {
  // Hashing is slow on purpose: done before the transaction so it holds no locks meanwhile.
  const passwordHash = await hashPassword(ctx.password);
  return ctx.db.transaction(async (tx) => {
    const link = await consumeActionToken(tx, {
      tenantId: ctx.tenantId,
      token: ctx.token,
      purposes: ['reset', 'invite'],
    });
    const before = await findUserRow(tx, ctx.tenantId, link.userId);
    if (!before) throw notFound('user.not_found');
    await checkPasswordPolicy(tx, {
      tenantId: ctx.tenantId,
      password: ctx.password,
      email: before.email,
      firstName: before.firstName,
      lastName: before.lastName,
    });
    await setVerifiedPassword(tx, link.userId, passwordHash);
    await retireLinks(tx, link.userId);
    await revokeUserSessions(tx, link.userId);
    // A locked-out user who proves the mailbox may sign in with the new password at once.
    await clearLoginFailures(tx, link.userId);
    if (link.purpose === 'reset') {
      await mailUser(tx, ctx.config.publicUrl, {
        userId: link.userId,
        kind: 'passwordChanged',
        acceptLanguage: ctx.acceptLanguage,
      });
    }
    await recordChange(tx, {
      tenantId: ctx.tenantId,
      actorId: link.userId,
      entity: 'users',
      action: 'update',
      entityId: link.userId,
      before,
      after: await findUserRow(tx, ctx.tenantId, link.userId),
    });
    return { email: before.email, realm: await realmNameOf(tx, ctx.tenantId) };
  });
}

/**
 * Confirms a signed-up user's address; from then on the password grant lets them in with the
 * password chosen at sign-up. That password survives because this link went only to the
 * mailbox and confirms the very sign-up its mail describes: whoever opens it vouches for that
 * sign-up, password included. Had the account been claimed in between (Google, a reset or
 * invitation link), the claim would have retired this link, so it can never vouch for a
 * password that someone else typed after the mailbox's owner took the account.
 */
export async function verifyEmail(
  ctx: AccountContext & { token: string },
): Promise<{ email: string; realm: string }> {
  return ctx.db.transaction(async (tx) => {
    const link = await consumeActionToken(tx, {
      tenantId: ctx.tenantId,
      token: ctx.token,
      purposes: ['verify'],
    });
    const user = await markEmailVerified(tx, link.userId);
    if (!user) throw notFound('user.not_found');
    return { email: user.email, realm: await realmNameOf(tx, ctx.tenantId) };
  });
}

/**
 * An unverified account was made by someone who typed an address and a password into the
 * sign-up form, not necessarily the address's owner. When the owner proves the mailbox
 * another way (Google here; reset and invitation links set their own password in
 * resetPassword), that password is discarded and every session and link of the account ends,
 * so a squatter keeps nothing. The owner sets a password through forgot-password. An account
 * that got verified in the meantime is left as it is.
 */
export async function claimUnverifiedAccount(
  db: Database,
  input: { tenantId: string; userId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findUserRow(tx, input.tenantId, input.userId);
    const claimed = await claimUnverifiedUser(tx, input.tenantId, input.userId);
    if (!claimed) return;
    await retireLinks(tx, input.userId);
    // Today no route gives an unverified account a session; should one ever exist, it ends.
    await revokeUserSessions(tx, input.userId);
    await recordChange(tx, {
      tenantId: input.tenantId,
      actorId: input.userId,
      entity: 'users',
      action: 'update',
      entityId: input.userId,
      before,
      after: await findUserRow(tx, input.tenantId, input.userId),
    });
  });
}

/** "Ada King Lovelace" → Ada / King Lovelace; one word → that word and an empty last name. */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = fullName.trim().split(/\s+/);
  return { firstName: first.slice(0, 100), lastName: rest.join(' ').slice(0, 100) };
}

export function requireSignupOpen(tenant: TenantInfo): void {
  if (!tenant.signupEnabled) throw forbidden('signup.closed');
}

async function memberRoleId(ctx: AccountContext): Promise<string> {
  const roleId = await builtInRoleId(ctx.db, ctx.tenantId, MEMBER_ROLE);
  if (!roleId) throw forbidden('signup.closed');
  return roleId;
}

/**
 * The owner of an address that tried to sign up again hears about it, with a reset link of
 * its own: issuing it leaves earlier reset links live (see issueActionToken). The form's name
 * is not in the mail; mailUser greets by what the account holds, if anything.
 */
async function warnOwner(ctx: AccountContext, email: string): Promise<void> {
  await mailActiveAccount(ctx, email, 'signupExisting');
}

/** Inserts the Member user (unverified), the audit entry and the verification mail; false if taken. */
async function insertSignup(
  ctx: AccountContext,
  data: SignupRequest,
  passwordHash: string,
): Promise<boolean> {
  const roleId = await memberRoleId(ctx);
  try {
    await ctx.db.transaction(async (tx) => {
      const userId = await insertSignedUpUser(tx, {
        tenantId: ctx.tenantId,
        email: data.email,
        ...splitFullName(data.fullName),
        roleId,
        passwordHash,
        locale: fromAcceptLanguage(ctx.acceptLanguage) ?? null,
      });
      await mailUser(tx, ctx.config.publicUrl, {
        userId,
        kind: 'verify',
        purpose: 'verify',
        acceptLanguage: ctx.acceptLanguage,
      });
      await recordChange(tx, {
        tenantId: ctx.tenantId,
        actorId: userId,
        entity: 'users',
        action: 'create',
        entityId: userId,
        after: await findUserRow(tx, ctx.tenantId, userId),
      });
    });
    return true;
  } catch (error) {
    if (uniqueViolation(error) === 'users_tenant_email_key') return false;
    throw error;
  }
}

/**
 * The tenant's password policy for a sign-up; the route checks it before the address's mail
 * budget is spent, so correcting a refused password costs no mail.
 */
export async function requireSignupPassword(ctx: AccountContext, data: SignupRequest) {
  await checkPasswordPolicy(ctx.db, {
    tenantId: ctx.tenantId,
    password: data.password,
    email: data.email,
    ...splitFullName(data.fullName),
  });
}

/**
 * Self-service sign-up as a Member who must confirm the address before signing in.
 * A taken address gets the same answer and mails its owner instead, so sign-up never tells
 * whether an account exists; the password is hashed either way so timing does not tell either.
 */
export async function signup(
  ctx: AccountContext & { tenant: TenantInfo; data: SignupRequest },
): Promise<void> {
  requireSignupOpen(ctx.tenant);
  await requireSignupPassword(ctx, ctx.data);
  const passwordHash = await hashPassword(ctx.data.password);
  const created = await insertSignup(ctx, ctx.data, passwordHash);
  if (!created) await warnOwner(ctx, ctx.data.email);
}
