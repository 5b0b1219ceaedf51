import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Page } from '@tc/contract/paging';
import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import type { Permission, PermissionPageRequest } from '@tc/contract/permissions-api';
import type { Database } from '../../db/database';
import { permissions, rolePermissions, roles } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import {
  cappedCountQuery,
  matchesSearch,
  pageIdsQuery,
  pageOfCountedRows,
} from '../../http/paging';
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

/**
 * The roles holding the permission by name, as one JSON array, read in the row's statement. A
 * subquery of its own: it keeps its columns qualified even when the outer query has one table.
 */
const holders = (db: Database) =>
  sql<{ id: string; name: string }[]>`${db
    .select({
      list: sql`coalesce(json_agg(json_build_object('id', ${roles.id}, 'name', ${roles.name})
        order by ${roles.name}, ${roles.id}), '[]'::json)`,
    })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
    .where(eq(rolePermissions.permissionId, permissions.id))}`;

const permissionColumns = (db: Database) => ({
  id: permissions.id,
  name: permissions.name,
  description: permissions.description,
  system: permissions.isSystem,
  holders: holders(db),
  createdAt: permissions.createdAt,
  updatedAt: permissions.updatedAt,
});

const selectPermissions = (db: Database) => db.select(permissionColumns(db)).from(permissions);

function toPermission({
  holders,
  ...row
}: Awaited<ReturnType<typeof selectPermissions>>[number]): Permission {
  return {
    ...row,
    roleIds: holders.map((holder) => holder.id),
    roles: holders.map((holder) => holder.name),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The permission `id` of the caller's tenant; another tenant's is answered as missing. */
export async function findPermission(
  db: Database,
  tenantId: string,
  id: string,
): Promise<Permission> {
  const [row] = await selectPermissions(db).where(
    and(eq(permissions.id, id), eq(permissions.tenantId, tenantId)),
  );
  if (!row) throw notFound('permission.not_found');
  return toPermission(row);
}

/**
 * The order of each sort, each that of an index (read backwards for descending): names are
 * unique within a tenant regardless of case, so the name alone orders completely.
 */
const sortKeys: Record<PermissionPageRequest['listSort']['field'], (PgColumn | SQL)[]> = {
  name: [sql`lower(${permissions.name})`],
  createdAt: [permissions.createdAt, permissions.id],
};

/** A role's permissions: each one is looked up in role_permissions by its key. */
function heldBy(roleId: string) {
  return sql`exists (select 1 from ${rolePermissions} where ${rolePermissions.roleId} = ${roleId}
    and ${rolePermissions.permissionId} = ${permissions.id})`;
}

function pageWhere(tenantId: string, filter: PermissionPageRequest['filter']) {
  return and(
    eq(permissions.tenantId, tenantId),
    // The name's start or anywhere in it, by the fragment's length; the trigram index serves both.
    filter.search ? matchesSearch(permissions.name, filter.search) : undefined,
    filter.roleId ? heldBy(filter.roleId) : undefined,
  )!;
}

export function permissionCountQuery(
  db: Database,
  tenantId: string,
  filter: PermissionPageRequest['filter'],
) {
  return cappedCountQuery(db, permissions, pageWhere(tenantId, filter));
}

/**
 * A page and the total as one statement: the page's permissions are found along the sort's
 * index, then read with the roles holding them.
 */
export function permissionPageQuery(
  db: Database,
  tenantId: string,
  request: PermissionPageRequest,
) {
  const ids = pageIdsQuery(
    db,
    { table: permissions, id: permissions.id, where: pageWhere(tenantId, request.filter) },
    sortKeys[request.listSort.field],
    request,
  );
  const total = permissionCountQuery(db, tenantId, request.filter);
  return db
    .select({ ...permissionColumns(db), total: sql<number>`(${total})`.mapWith(Number) })
    .from(ids.page)
    .innerJoin(permissions, eq(permissions.id, ids.id))
    .orderBy(...ids.orderBy);
}

export async function pagePermissions({
  db,
  caller,
  request,
}: ServiceContext & { request: PermissionPageRequest }): Promise<Page<Permission>> {
  const rows = await permissionPageQuery(db, caller.tenantId, request);
  return pageOfCountedRows(request, rows, toPermission, () =>
    permissionCountQuery(db, caller.tenantId, request.filter),
  );
}
