import { and, eq, sql } from 'drizzle-orm';
import type { SignupRequest } from '@tc/contract/account';
import { MEMBER_ROLE } from '@tc/contract/permissions';
import { builtInRoleId } from '../roles';
import type { TenantInfo } from '@tc/contract/identity';
import { uniqueViolation } from '../../db/errors';
import { users } from '../../db/schema/identity';
import { forbidden } from '../../http/problem';
import { hashPassword } from '../../identity/passwords';
import { fromAcceptLanguage } from '../../mail/locale';
import { recordChange } from '../audit';
import { findUserRow } from '../users';
import { mailUser } from '../../mail/account-mail';
import type { AccountContext } from './account-service';

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
  const [owner] = await ctx.db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, ctx.tenantId), eq(sql`lower(${users.email})`, email)));
  if (!owner || owner.status !== 'active') return;
  await ctx.db.transaction((tx) =>
    mailUser(tx, ctx.config.publicUrl, {
      userId: owner.id,
      kind: 'signupExisting',
      purpose: 'reset',
      acceptLanguage: ctx.acceptLanguage,
    }),
  );
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
      const [user] = await tx
        .insert(users)
        .values({
          tenantId: ctx.tenantId,
          email: data.email,
          ...splitFullName(data.fullName),
          roleId,
          passwordHash,
          emailVerified: false,
          locale: fromAcceptLanguage(ctx.acceptLanguage) ?? null,
        })
        .returning({ id: users.id });
      const userId = user!.id;
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
 * Self-service sign-up as a Member who must confirm the address before signing in.
 * A taken address gets the same answer and mails its owner instead, so sign-up never tells
 * whether an account exists; the password is hashed either way so timing does not tell either.
 */
export async function signup(
  ctx: AccountContext & { tenant: TenantInfo; data: SignupRequest },
): Promise<void> {
  requireSignupOpen(ctx.tenant);
  const passwordHash = await hashPassword(ctx.data.password);
  const created = await insertSignup(ctx, ctx.data, passwordHash);
  if (!created) await warnOwner(ctx, ctx.data.email);
}
