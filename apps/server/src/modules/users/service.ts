import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { User, UserCreate, UserPageRequest, UserUpdate } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { badRequest, conflict, notFound } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { clearLoginFailures } from '../../identity/brute-force';
import { revokeUserSessions } from '../../identity/sessions';
import { recordChange } from '../audit';
import { sendInvitation } from '../../mail/account-mail';
import { requireMayActOnUser, requireMayGiveRole, requireAdministrator } from '../roles';
import { requireRole } from '../roles';
import { findUserRow, insertUser, pageUsers } from './queries';

const ENTITY = 'users';

/** Checks that every id is a user of this tenant (project owner and people). */
export async function requireUsersInTenant(
  db: Database,
  tenantId: string,
  userIds: readonly string[],
  field: string,
): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, unique)));
  if (found.length !== unique.length) {
    throw badRequest('user.not_in_tenant', {}, { [field]: 'user.unknown' });
  }
}

/** The e-mail is unique per tenant, case-insensitively (users_tenant_email_key): 409, not 500. */
function withUniqueEmail<T>(write: () => Promise<T>): Promise<T> {
  return withUniqueFields(write, {
    users_tenant_email_key: {
      field: 'email',
      code: 'user.email_taken',
      fieldCode: 'user.email_in_use',
    },
  });
}

async function requireUserRow(tx: Database, tenantId: string, id: string): Promise<User> {
  const row = await findUserRow(tx, tenantId, id);
  if (!row) throw notFound('user.not_found');
  return row;
}

/**
 * Adds an invited user (no password yet) with a role of the caller's tenant; the invitation
 * mail is queued in the same transaction, so it goes out exactly when the user exists.
 */
export async function createUser({
  db,
  config,
  caller,
  data,
}: ServiceContext & { data: UserCreate }): Promise<User> {
  const tenantId = caller.tenantId;
  return db.transaction(async (tx) => {
    await requireRole(tx, tenantId, data.roleId);
    await requireMayGiveRole(tx, caller, data.roleId);
    const id = await withUniqueEmail(() => insertUser(tx, { ...data, tenantId }));
    await sendInvitation(tx, config.publicUrl, { userId: id, inviterId: caller.userId });
    const after = await requireUserRow(tx, tenantId, id);
    await recordChange(tx, {
      tenantId,
      actorId: caller.userId,
      entity: ENTITY,
      action: 'create',
      entityId: id,
      after,
    });
    return after;
  });
}

/**
 * Edits a user of the caller's tenant. Deactivation ends the user's sessions in the same
 * transaction, so their access tokens answer 401 at once (the guard checks the session).
 */
export async function updateUser({
  db,
  caller,
  data,
}: ServiceContext & { data: UserUpdate }): Promise<User> {
  const tenantId = caller.tenantId;
  return db.transaction(async (tx) => {
    const before = await requireUserRow(tx, tenantId, data.id);
    await requireMayActOnUser(tx, caller, data.id);
    const status = data.status ?? before.status;
    if (data.id === caller.userId && status === 'inactive') {
      throw badRequest(
        'user.cannot_deactivate_self',
        {},
        {
          status: 'user.cannot_deactivate_yourself',
        },
      );
    }
    await requireRole(tx, tenantId, data.roleId);
    if (data.roleId !== before.roleId) {
      if (data.id === caller.userId) requireAdministrator(caller, 'grant.own_role_change');
      await requireMayGiveRole(tx, caller, data.roleId);
    }
    await withUniqueEmail(() =>
      tx
        .update(users)
        .set({
          firstName: data.firstName,
          lastName: data.lastName,
          email: data.email.trim().toLowerCase(),
          roleId: data.roleId,
          status,
          updatedAt: sql`now()`,
        })
        .where(and(eq(users.tenantId, tenantId), eq(users.id, data.id))),
    );
    if (status === 'inactive') await revokeUserSessions(tx, data.id);
    const after = await requireUserRow(tx, tenantId, data.id);
    await recordChange(tx, {
      tenantId,
      actorId: caller.userId,
      entity: ENTITY,
      action: 'update',
      entityId: data.id,
      before,
      after,
    });
    return after;
  });
}

/** Deletes a user of the caller's tenant; their sessions go with them (ON DELETE CASCADE). */
export async function removeUser({ db, caller, id }: ServiceContext & { id: string }) {
  const tenantId = caller.tenantId;
  await db.transaction(async (tx) => {
    const before = await requireUserRow(tx, tenantId, id);
    if (id === caller.userId) throw badRequest('user.cannot_delete_self');
    await requireMayActOnUser(tx, caller, id);
    await tx.delete(users).where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
    // Failure counts are kept by id without a foreign key (unknown names are counted too).
    await clearLoginFailures(tx, id);
    await recordChange(tx, {
      tenantId,
      actorId: caller.userId,
      entity: ENTITY,
      action: 'delete',
      entityId: id,
      before,
    });
  });
}

export async function getUser({ db, caller, id }: ServiceContext & { id: string }): Promise<User> {
  const row = await findUserRow(db, caller.tenantId, id);
  if (!row) throw notFound('user.not_found');
  return row;
}

/** A fresh invitation for a user of the caller's tenant; the old link stops working. */
export async function resendInvitation(input: {
  db: Database;
  config: Config;
  tenantId: string;
  acceptLanguage?: string;
  userId: string;
  inviterId: string;
}): Promise<void> {
  await input.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.tenantId, input.tenantId), eq(users.id, input.userId)))
      .for('update');
    if (!user) throw notFound('user.not_found');
    if (user.passwordHash !== null) {
      throw conflict('account.password_already_set');
    }
    await sendInvitation(tx, input.config.publicUrl, {
      userId: input.userId,
      inviterId: input.inviterId,
      acceptLanguage: input.acceptLanguage,
    });
  });
}

/** The five CRUD operations. */
export const usersService = {
  page: pageUsers,
  get: getUser,
  create: createUser,
  update: updateUser,
  remove: removeUser,
} satisfies CrudService<User, UserPageRequest, UserCreate, UserUpdate>;
