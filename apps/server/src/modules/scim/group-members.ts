import { and, eq, inArray, sql } from 'drizzle-orm';
import { MEMBER_ROLE } from '@tc/contract/permissions';
import type { Database } from '../../db/database';
import { roles, users } from '../../db/schema/identity';
import { recordChange } from '../audit';
import { builtInRoleId } from '../roles';
import { badRequest } from './errors';
import { requireHoldsRole } from './grants';
import type { ScimScope } from './users-service';
import { requireUserRow } from './users-queries';
import { isUuid } from '@tc/contract/text';

/** The user ids of a `members` value: a list of {value} (or one such object). */
export function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id =
      typeof member === 'object' && member !== null
        ? (member as Record<string, unknown>).value
        : undefined;
    if (!isUuid(id)) {
      throw badRequest('invalidValue', 'A member is {"value": "<user id>"}');
    }
    return id.toLowerCase();
  });
}

/**
 * Gives each user the role: users hold exactly one role, so joining a group leaves the one
 * before. The application must hold the new role's permissions and the old one's.
 */
async function moveUsers(
  tx: Database,
  scope: ScimScope,
  userIds: readonly string[],
  roleId: string,
) {
  const tenantId = scope.client.tenantId;
  const source = { source: 'scim', clientId: scope.client.clientId };
  for (const userId of new Set(userIds)) {
    const before = await requireUserRow(tx, tenantId, userId, true).catch(() => {
      throw badRequest('invalidValue', `No user ${userId} in this tenant`);
    });
    if (before.roleId === roleId) continue;
    await requireHoldsRole(tx, scope.client, before.roleId, 'Moving this user out of its group');
    await requireHoldsRole(tx, scope.client, roleId, 'Adding a member to this group');
    await tx
      .update(users)
      .set({
        roleId,
        updatedAt: sql`greatest(now(), ${before.updatedAt.toISOString()}::timestamptz + interval '1 millisecond')`,
      })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
    const after = await requireUserRow(tx, tenantId, userId);
    await recordChange(tx, {
      tenantId,
      actorId: null,
      entity: 'users',
      action: 'update',
      entityId: userId,
      before: { ...before, ...source },
      after: { ...after, ...source },
    });
  }
}

/** The users of the role among `userIds` (all of them when undefined). */
async function holders(tx: Database, tenantId: string, roleId: string, userIds?: string[]) {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        eq(users.roleId, roleId),
        userIds ? inArray(users.id, userIds) : undefined,
      ),
    );
  return rows.map((row) => row.id);
}

/** The group's version changes with its members. */
async function touchGroup(tx: Database, roleId: string) {
  await tx
    .update(roles)
    .set({ updatedAt: sql`greatest(now(), ${roles.updatedAt} + interval '1 millisecond')` })
    .where(eq(roles.id, roleId));
}

export async function addMembers(tx: Database, scope: ScimScope, roleId: string, ids: string[]) {
  await moveUsers(tx, scope, ids, roleId);
  await touchGroup(tx, roleId);
}

/**
 * Leaving a group means joining the tenant's built-in Member role (every user holds one role);
 * leaving Member itself changes nothing. `ids` undefined: every member leaves.
 */
export async function removeMembers(
  tx: Database,
  scope: ScimScope,
  roleId: string,
  ids: string[] | undefined,
) {
  if (ids?.length === 0) return;
  const tenantId = scope.client.tenantId;
  const memberRoleId = (await builtInRoleId(tx, tenantId, MEMBER_ROLE))!;
  if (roleId === memberRoleId) return;
  await moveUsers(tx, scope, await holders(tx, tenantId, roleId, ids), memberRoleId);
  await touchGroup(tx, roleId);
}

/** Exactly these members: the others leave, the new ones join. */
export async function replaceMembers(
  tx: Database,
  scope: ScimScope,
  roleId: string,
  ids: string[],
) {
  const current = await holders(tx, scope.client.tenantId, roleId);
  const wanted = new Set(ids);
  await removeMembers(
    tx,
    scope,
    roleId,
    current.filter((id) => !wanted.has(id)),
  );
  await addMembers(tx, scope, roleId, ids);
}
