import { and, eq, sql } from 'drizzle-orm';
import { isPasswordTheEmail } from '@tc/contract/account';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { badRequest, notFound } from '../../http/problem';
import { clearLoginFailures } from '../../identity/brute-force';
import { hashPassword } from '../../identity/passwords';
import { revokeUserSessions } from '../../identity/sessions';
import { recordChange } from '../audit';
import { findUserRow } from '../users';
import { mailUser } from '../../mail/account-mail';
import { consumeActionToken, retireLinks } from '../../mail/links';

export interface AccountContext {
  db: Database;
  config: Config;
  /** The tenant the request is for (identifyTenant: Tenant-ID header, else host). */
  tenantId: string;
  acceptLanguage?: string;
}

/**
 * Queues a reset link if the address belongs to an active user of the tenant. The caller
 * answers the same either way (no account enumeration, OWASP Forgot Password Cheat Sheet).
 */
export async function forgotPassword(ctx: AccountContext & { email: string }): Promise<void> {
  const [user] = await ctx.db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, ctx.tenantId), eq(sql`lower(${users.email})`, ctx.email)));
  if (!user || user.status !== 'active') return;
  await ctx.db.transaction((tx) =>
    mailUser(tx, ctx.config.publicUrl, {
      userId: user.id,
      kind: 'reset',
      purpose: 'reset',
      acceptLanguage: ctx.acceptLanguage,
    }),
  );
}

async function realmOf(tx: Database, tenantId: string): Promise<string> {
  const [row] = await tx
    .select({ name: tenants.name })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row?.name ?? '';
}

/**
 * Completes a reset or an invitation: sets the password, marks the address verified (the
 * link reached that mailbox), ends every session, retires every other link and, for a reset,
 * queues the "password changed" notice. A rejected password leaves the link usable.
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
    if (isPasswordTheEmail(ctx.password, before.email)) {
      throw badRequest('password.is_email', {}, { password: 'password.is_email' });
    }
    await tx
      .update(users)
      .set({ passwordHash, emailVerified: true, updatedAt: sql`now()` })
      .where(eq(users.id, link.userId));
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
    return { email: before.email, realm: await realmOf(tx, ctx.tenantId) };
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
    const [user] = await tx
      .update(users)
      .set({ emailVerified: true, updatedAt: sql`now()` })
      .where(eq(users.id, link.userId))
      .returning({ email: users.email });
    if (!user) throw notFound('user.not_found');
    return { email: user.email, realm: await realmOf(tx, ctx.tenantId) };
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
    const [claimed] = await tx
      .update(users)
      .set({ passwordHash: null, emailVerified: true, updatedAt: sql`now()` })
      .where(
        and(
          eq(users.tenantId, input.tenantId),
          eq(users.id, input.userId),
          eq(users.emailVerified, false),
        ),
      )
      .returning({ id: users.id });
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
