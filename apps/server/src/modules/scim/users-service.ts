import { and, eq, sql } from 'drizzle-orm';
import { MEMBER_ROLE } from '@tc/contract/permissions';
import type { AppContext } from '../../app-context';
import type { Database } from '../../db/database';
import { uniqueViolation } from '../../db/errors';
import { users } from '../../db/schema/identity';
import { clearLoginFailures } from '../../identity/brute-force';
import { revokeUserSessions } from '../../identity/sessions';
import { sendInvitation } from '../../mail/account-mail';
import { recordChange, type ChangeAction } from '../audit';
import { builtInRoleId } from '../roles';
import { readProvisioningSettings } from '../settings';
import type { ScimClient } from './auth';
import { uniqueness } from './errors';
import { requireHoldsRole } from './grants';
import { requireVersion, type ListParams } from './request-params';
import { patchUserResource } from './user-patch';
import {
  readUserBody,
  toScimUser,
  versionOf,
  type ScimUserRow,
  type UserFields,
} from './user-resource';
import { listUserRows, requireUserRow } from './users-queries';

export interface ScimScope {
  ctx: AppContext;
  client: ScimClient;
  /** Where this tenant's SCIM resources live: locations are made from it. */
  baseUrl: string;
}

/** A broken unique index is the client's 409 uniqueness, never a 500. */
async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const index = uniqueViolation(error);
    if (index === 'users_tenant_email_key') throw uniqueness('A user with this userName exists');
    if (index === 'users_tenant_external_id_key') {
      throw uniqueness('A user with this externalId exists');
    }
    throw error;
  }
}

/**
 * A SCIM change, audited and sent like a console change, with the application as its source
 * (there is no acting user).
 */
export async function recordScimChange(
  tx: Database,
  scope: ScimScope,
  change: { entity: 'users' | 'roles'; action: ChangeAction; id: string },
  before?: object,
  after?: object,
) {
  const source = { source: 'scim', clientId: scope.client.clientId };
  await recordChange(tx, {
    tenantId: scope.client.tenantId,
    actorId: null,
    entity: change.entity,
    action: change.action,
    entityId: change.id,
    before: before ? { ...before, ...source } : undefined,
    after: after ? { ...after, ...source } : undefined,
  });
}

const audit = (
  tx: Database,
  scope: ScimScope,
  action: ChangeAction,
  id: string,
  before?: ScimUserRow,
  after?: ScimUserRow,
) => recordScimChange(tx, scope, { entity: 'users', action, id }, before, after);

export async function listUsers(scope: ScimScope, params: ListParams) {
  const { total, rows } = await listUserRows(scope.ctx.db, scope.client.tenantId, params);
  return { total, resources: rows.map((row) => toScimUser(row, scope.baseUrl)) };
}

export async function getUser(scope: ScimScope, id: string) {
  return toScimUser(await requireUserRow(scope.ctx.db, scope.client.tenantId, id), scope.baseUrl);
}

/**
 * A new user with the tenant's Member role: invited by mail (no password yet) or active
 * without a mail, as the tenant chose. An inactive user gets no invitation.
 */
export async function createUser(scope: ScimScope, body: unknown) {
  const fields = readUserBody(body);
  const { db, config } = scope.ctx;
  const tenantId = scope.client.tenantId;
  return db.transaction(async (tx) => {
    const roleId = await builtInRoleId(tx, tenantId, MEMBER_ROLE);
    await requireHoldsRole(tx, scope.client, roleId!, 'Creating a user');
    const settings = await readProvisioningSettings(tx, tenantId);
    const [inserted] = await uniquely(() =>
      tx
        .insert(users)
        .values({
          tenantId,
          email: fields.email,
          firstName: fields.firstName,
          lastName: fields.lastName,
          externalId: fields.externalId,
          roleId: roleId!,
          status: fields.active ? 'active' : 'inactive',
          passwordHash: null,
        })
        .returning({ id: users.id }),
    );
    const id = inserted!.id;
    if (fields.active && settings.scimNewUsers === 'invite') {
      await sendInvitation(tx, config.publicUrl, { userId: id, inviterId: null });
    }
    const after = await requireUserRow(tx, tenantId, id);
    await audit(tx, scope, 'create', id, undefined, after);
    return toScimUser(after, scope.baseUrl);
  });
}

/** Writes a user's fields under the checks every change shares (version, grants, uniqueness). */
async function writeUser(tx: Database, scope: ScimScope, before: ScimUserRow, fields: UserFields) {
  const tenantId = scope.client.tenantId;
  await uniquely(() =>
    tx
      .update(users)
      .set({
        email: fields.email,
        firstName: fields.firstName,
        lastName: fields.lastName,
        externalId: fields.externalId,
        status: fields.active ? 'active' : 'inactive',
        updatedAt: sql`greatest(now(), ${before.updatedAt.toISOString()}::timestamptz + interval '1 millisecond')`,
      })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, before.id))),
  );
  // Deactivation ends the user's sessions at once, as in the console.
  if (!fields.active) await revokeUserSessions(tx, before.id);
  const after = await requireUserRow(tx, tenantId, before.id);
  await audit(tx, scope, 'update', before.id, before, after);
  return toScimUser(after, scope.baseUrl);
}

/** Reads and locks a user for a change, checking If-Match and that the client may act on it. */
async function lockForChange(
  tx: Database,
  scope: ScimScope,
  id: string,
  ifMatch: string | undefined,
  doing: string,
) {
  const before = await requireUserRow(tx, scope.client.tenantId, id, true);
  requireVersion(ifMatch, versionOf(before.updatedAt));
  await requireHoldsRole(tx, scope.client, before.roleId, doing);
  return before;
}

export function replaceUser(scope: ScimScope, id: string, body: unknown, ifMatch?: string) {
  const fields = readUserBody(body);
  return scope.ctx.db.transaction(async (tx) => {
    const before = await lockForChange(tx, scope, id, ifMatch, 'Changing this user');
    return writeUser(tx, scope, before, fields);
  });
}

export function patchUser(scope: ScimScope, id: string, body: unknown, ifMatch?: string) {
  return scope.ctx.db.transaction(async (tx) => {
    const before = await lockForChange(tx, scope, id, ifMatch, 'Changing this user');
    const resource = toScimUser(before, scope.baseUrl);
    const fields = readUserBody(patchUserResource(resource, body), resource);
    return writeUser(tx, scope, before, fields);
  });
}

/** Deactivates (reversibly) or deletes the user, as the tenant chose. */
export function deleteUser(scope: ScimScope, id: string, ifMatch?: string) {
  const tenantId = scope.client.tenantId;
  return scope.ctx.db.transaction(async (tx) => {
    const before = await lockForChange(tx, scope, id, ifMatch, 'Removing this user');
    const settings = await readProvisioningSettings(tx, tenantId);
    if (settings.scimDelete === 'deactivate') {
      await writeUser(tx, scope, before, {
        email: before.email,
        firstName: before.firstName,
        lastName: before.lastName,
        externalId: before.externalId,
        active: false,
      });
      return;
    }
    await tx.delete(users).where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
    await clearLoginFailures(tx, id);
    await audit(tx, scope, 'delete', id, before);
  });
}
