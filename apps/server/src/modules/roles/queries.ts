import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ADMIN_ROLE, MEMBER_ROLE } from '@tc/contract/permissions';
import type { Role, RolePageRequest } from '@tc/contract/roles';
import type { Database } from '../../db/database';
import { permissions, rolePermissions, roles, users } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { notFound } from '../../http/problem';

/** Creates a role holding the given permissions, in the caller's transaction. */
export async function insertRole(
  tx: Database,
  input: {
    tenantId: string;
    name: string;
    description?: string | null;
    status?: 'active' | 'inactive';
    isSystem?: boolean;
    permissionIds: string[];
  },
): Promise<string> {
  const [role] = await tx
    .insert(roles)
    .values({
      tenantId: input.tenantId,
      name: input.name,
      description: input.description ?? null,
      status: input.status ?? 'active',
      isSystem: input.isSystem ?? false,
    })
    .returning({ id: roles.id });
  await grantPermissions(tx, input.tenantId, role!.id, input.permissionIds);
  return role!.id;
}

export async function grantPermissions(
  tx: Database,
  tenantId: string,
  roleId: string,
  permissionIds: readonly string[],
) {
  const unique = [...new Set(permissionIds)];
  if (unique.length === 0) return;
  await tx
    .insert(rolePermissions)
    .values(unique.map((permissionId) => ({ tenantId, roleId, permissionId })));
}

/**
 * The id of one of the tenant's built-in roles: Admin (always holds every system
 * permission) or Member (the default role of self sign-up).
 */
export async function builtInRoleId(
  db: Database,
  tenantId: string,
  name: typeof ADMIN_ROLE | typeof MEMBER_ROLE,
): Promise<string | undefined> {
  const [role] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.isSystem, true), eq(roles.name, name)));
  return role?.id;
}

export const roleColumns = {
  id: roles.id,
  name: roles.name,
  description: roles.description,
  status: roles.status,
  system: roles.isSystem,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
};

export function selectRoles(db: Database, where: SQL | undefined) {
  return db.select(roleColumns).from(roles).where(where);
}

/**
 * Rows with their permissions and user counts, fetched for all rows at once; separate
 * queries rather than correlated subqueries keep every column reference typed.
 */
export async function toRoles(
  db: Database,
  rows: Awaited<ReturnType<typeof selectRoles>>,
): Promise<Role[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const grants = await db
    .select({ roleId: rolePermissions.roleId, id: permissions.id, name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(inArray(rolePermissions.roleId, ids))
    .orderBy(permissions.name, permissions.id);
  const holders = await db
    .select({ roleId: users.roleId, count: count() })
    .from(users)
    .where(inArray(users.roleId, ids))
    .groupBy(users.roleId);
  return rows.map((row) => {
    const granted = grants.filter((grant) => grant.roleId === row.id);
    return {
      ...row,
      status: row.status === 'inactive' ? 'inactive' : 'active',
      permissionIds: granted.map((grant) => grant.id),
      permissions: granted.map((grant) => grant.name),
      userCount: holders.find((holder) => holder.roleId === row.id)?.count ?? 0,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

/** The role `id` of the caller's tenant; another tenant's role is answered as missing. */
export async function findRole(db: Database, tenantId: string, id: string): Promise<Role> {
  const rows = await selectRoles(db, and(eq(roles.id, id), eq(roles.tenantId, tenantId)));
  const [role] = await toRoles(db, rows);
  if (!role) throw notFound('role.not_found');
  return role;
}

export async function pageRoles({
  db,
  caller,
  request,
}: ServiceContext & { request: RolePageRequest }) {
  const { search, status } = request.filter;
  const where = and(
    eq(roles.tenantId, caller.tenantId),
    search ? containsText(roles.name, search) : undefined,
    status ? eq(roles.status, status) : undefined,
  );
  const sortColumns = {
    name: sql`lower(${roles.name})`,
    status: roles.status,
    createdAt: roles.createdAt,
  };
  const window = pageWindow(request, sortColumns, roles.id);
  const [rows, [total]] = await Promise.all([
    selectRoles(db, where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    db.select({ count: count() }).from(roles).where(where),
  ]);
  return toPage(request, await toRoles(db, rows), total!.count);
}
