import { and, eq } from 'drizzle-orm';
import { ADMIN_ROLE } from '@tc/contract/permissions';
import type { ProblemParams } from '@tc/contract/problem-codes';
import type { Database } from '../../db/database';
import { permissions, rolePermissions, roles, users } from '../../db/schema/identity';
import { forbidden } from '../../http/problem';
import type { Caller } from '../../identity/token-service';

/**
 * Nobody grants what they do not hold. A write that would let someone do more — giving a
 * user a role, putting a permission on a role, renaming a held permission, acting on the
 * account of someone who may do more than the caller — needs the caller to hold every
 * permission involved. The tenant's Admin role is the one exception: it is the tenant's full
 * administrator and may grant any permission of its tenant, including custom ones it does
 * not carry itself. Assigning or editing the Admin role, and changing one's own role, are
 * for administrators only.
 */

/** The caller holds the Admin role (the built-in role's name is unique in its tenant). */
export const isAdministrator = (caller: Caller) => caller.roles.includes(ADMIN_ROLE);

const holds = (caller: Caller, name: string) =>
  isAdministrator(caller) || caller.permissions.includes(name);

const listed = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');

/** 403 unless the caller holds every one of these permissions. */
export function requireHoldsAll(
  caller: Caller,
  names: readonly string[],
  refusal: 'grant.role_not_held' | 'grant.permission_not_held',
  params: ProblemParams = {},
): void {
  const missing = [...new Set(names)].filter((name) => !holds(caller, name));
  if (missing.length === 0) return;
  throw forbidden(refusal, { ...params, permissions: listed(missing) });
}

/** 403 unless the caller is the tenant's administrator. */
export function requireAdministrator(
  caller: Caller,
  refusal:
    | 'grant.admin_role_give'
    | 'grant.admin_role_edit'
    | 'grant.admin_account_change'
    | 'grant.own_role_change',
): void {
  if (!isAdministrator(caller)) throw forbidden(refusal, { role: ADMIN_ROLE });
}

/** A role of the tenant with every permission it would grant (whatever its status). */
export async function roleGrants(
  db: Database,
  tenantId: string,
  roleId: string,
): Promise<{ name: string; isSystem: boolean; permissions: string[] } | undefined> {
  const rows = await db
    .select({ name: roles.name, isSystem: roles.isSystem, permission: permissions.name })
    .from(roles)
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(and(eq(roles.id, roleId), eq(roles.tenantId, tenantId)));
  const [first] = rows;
  if (!first) return undefined;
  const names = rows.flatMap((row) => (row.permission === null ? [] : [row.permission]));
  return { name: first.name, isSystem: first.isSystem, permissions: names };
}

const isAdminRole = (role: { name: string; isSystem: boolean }) =>
  role.isSystem && role.name === ADMIN_ROLE;

/** Giving a user this role: the caller must hold all it grants; the Admin role, be Admin. */
export async function requireMayGiveRole(db: Database, caller: Caller, roleId: string) {
  const role = await roleGrants(db, caller.tenantId, roleId);
  if (!role) return; // the caller's own existence check answers an unknown role
  if (isAdminRole(role)) requireAdministrator(caller, 'grant.admin_role_give');
  requireHoldsAll(caller, role.permissions, 'grant.role_not_held', { role: role.name });
}

/**
 * Editing, deleting or re-inviting a user whose role may do more than the caller could be
 * turned into the caller's own gain (e.g. a changed e-mail address takes the account over).
 */
export async function requireMayActOnUser(db: Database, caller: Caller, userId: string) {
  if (userId === caller.userId) return;
  const [user] = await db
    .select({ roleId: users.roleId })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.tenantId, caller.tenantId)));
  if (!user) return;
  const role = await roleGrants(db, caller.tenantId, user.roleId);
  if (!role) return;
  if (isAdminRole(role)) requireAdministrator(caller, 'grant.admin_account_change');
  const missing = role.permissions.filter((name) => !holds(caller, name));
  if (missing.length > 0) {
    throw forbidden('grant.user_role_not_held', { permissions: listed(missing) });
  }
}
