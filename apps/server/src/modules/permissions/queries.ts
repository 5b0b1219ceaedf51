import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import type { Permission, PermissionPageRequest } from '@tc/contract/permissions-api';
import type { Database } from '../../db/database';
import { permissions, rolePermissions, roles } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { notFound } from '../../http/problem';

/** Seeds the system permissions of a new tenant; returns their ids by name. */
export async function createSystemPermissions(
  tx: Database,
  tenantId: string,
): Promise<Map<string, string>> {
  const rows = await tx
    .insert(permissions)
    .values(SYSTEM_PERMISSIONS.map((name) => ({ tenantId, name, isSystem: true })))
    .returning({ id: permissions.id, name: permissions.name });
  return new Map(rows.map((row) => [row.name, row.id]));
}

export const permissionColumns = {
  id: permissions.id,
  name: permissions.name,
  description: permissions.description,
  system: permissions.isSystem,
  createdAt: permissions.createdAt,
  updatedAt: permissions.updatedAt,
};

export function selectPermissions(db: Database, where: SQL | undefined) {
  return db.select(permissionColumns).from(permissions).where(where);
}

/** Rows with the roles holding them, fetched for all rows in one query. */
export async function toPermissions(
  db: Database,
  rows: Awaited<ReturnType<typeof selectPermissions>>,
): Promise<Permission[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const holders = await db
    .select({ permissionId: rolePermissions.permissionId, id: roles.id, name: roles.name })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
    .where(inArray(rolePermissions.permissionId, ids))
    .orderBy(roles.name, roles.id);
  return rows.map((row) => {
    const held = holders.filter((holder) => holder.permissionId === row.id);
    return {
      ...row,
      roleIds: held.map((holder) => holder.id),
      roles: held.map((holder) => holder.name),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

/** The permission `id` of the caller's tenant; another tenant's is answered as missing. */
export async function findPermission(
  db: Database,
  tenantId: string,
  id: string,
): Promise<Permission> {
  const rows = await selectPermissions(
    db,
    and(eq(permissions.id, id), eq(permissions.tenantId, tenantId)),
  );
  const [permission] = await toPermissions(db, rows);
  if (!permission) throw notFound('permission.not_found');
  return permission;
}

export async function pagePermissions({
  db,
  caller,
  request,
}: ServiceContext & { request: PermissionPageRequest }) {
  const { search, roleId } = request.filter;
  // Not correlated: Drizzle leaves columns unqualified in single-table queries.
  const heldByRole = (id: string) =>
    inArray(
      permissions.id,
      db
        .select({ id: rolePermissions.permissionId })
        .from(rolePermissions)
        .where(eq(rolePermissions.roleId, id)),
    );
  const where = and(
    eq(permissions.tenantId, caller.tenantId),
    search ? containsText(permissions.name, search) : undefined,
    roleId ? heldByRole(roleId) : undefined,
  );
  const sortColumns = { name: sql`lower(${permissions.name})`, createdAt: permissions.createdAt };
  const window = pageWindow(request, sortColumns, permissions.id);
  const [rows, [total]] = await Promise.all([
    selectPermissions(db, where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    db.select({ count: count() }).from(permissions).where(where),
  ]);
  return toPage(request, await toPermissions(db, rows), total!.count);
}
