import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ADMIN_ROLE, MEMBER_ROLE } from '@tc/contract/permissions';
import type { Page } from '@tc/contract/paging';
import type { Role, RolePageRequest } from '@tc/contract/roles';
import type { Database } from '../../db/database';
import { permissions, rolePermissions, roles, userCounts } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import {
  cappedCountQuery,
  matchesSearch,
  pageIdsQuery,
  pageOfCountedRows,
} from '../../http/paging';
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

/*
 * The role's permissions by name, as one JSON array, and how many users hold it (the
 * trigger-kept user_counts rows, never a count of users), read in the row's statement. Each
 * a subquery of its own: it keeps its columns qualified even when the outer query has one table.
 */
const grants = (db: Database) =>
  sql<{ id: string; name: string }[]>`${db
    .select({
      list: sql`coalesce(json_agg(json_build_object('id', ${permissions.id}, 'name', ${permissions.name})
        order by ${permissions.name}, ${permissions.id}), '[]'::json)`,
    })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roles.id))}`;

const holders = (db: Database) =>
  sql<number>`${db
    .select({ n: sql`coalesce(sum(${userCounts.n}), 0)` })
    .from(userCounts)
    .where(and(eq(userCounts.tenantId, roles.tenantId), eq(userCounts.roleId, roles.id)))}`;

const roleColumns = (db: Database) => ({
  id: roles.id,
  name: roles.name,
  description: roles.description,
  status: roles.status,
  system: roles.isSystem,
  grants: grants(db),
  userCount: holders(db).mapWith(Number),
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
});

const selectRoles = (db: Database) => db.select(roleColumns(db)).from(roles);

function toRole({ grants, ...row }: Awaited<ReturnType<typeof selectRoles>>[number]): Role {
  return {
    ...row,
    status: row.status === 'inactive' ? 'inactive' : 'active',
    permissionIds: grants.map((grant) => grant.id),
    permissions: grants.map((grant) => grant.name),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The role `id` of the caller's tenant; another tenant's role is answered as missing. */
export async function findRole(db: Database, tenantId: string, id: string): Promise<Role> {
  const [row] = await selectRoles(db).where(and(eq(roles.id, id), eq(roles.tenantId, tenantId)));
  if (!row) throw notFound('role.not_found');
  return toRole(row);
}

/**
 * The order of each sort, each that of an index (read backwards for descending): names are
 * unique within a tenant regardless of case, so the name alone orders completely.
 */
const byName = sql`lower(${roles.name})`;
const sortKeys: Record<RolePageRequest['listSort']['field'], (PgColumn | SQL)[]> = {
  name: [byName],
  status: [roles.status, byName],
  createdAt: [roles.createdAt, roles.id],
};

function orderOf({ listSort, filter }: RolePageRequest) {
  // One status's roles are in name order.
  return sortKeys[listSort.field === 'status' && filter.status ? 'name' : listSort.field];
}

function pageWhere(tenantId: string, filter: RolePageRequest['filter']) {
  return and(
    eq(roles.tenantId, tenantId),
    // The name's start or anywhere in it, by the fragment's length; the trigram index serves both.
    filter.search ? matchesSearch(roles.name, filter.search) : undefined,
    filter.status ? eq(roles.status, filter.status) : undefined,
  )!;
}

export function roleCountQuery(db: Database, tenantId: string, filter: RolePageRequest['filter']) {
  return cappedCountQuery(db, roles, pageWhere(tenantId, filter));
}

/**
 * A page and the total as one statement: the page's roles are found along the sort's index,
 * then read with their permissions and user counts.
 */
export function rolePageQuery(db: Database, tenantId: string, request: RolePageRequest) {
  const where = pageWhere(tenantId, request.filter);
  const ids = pageIdsQuery(db, { table: roles, id: roles.id, where }, orderOf(request), request);
  const total = roleCountQuery(db, tenantId, request.filter);
  return db
    .select({ ...roleColumns(db), total: sql<number>`(${total})`.mapWith(Number) })
    .from(ids.page)
    .innerJoin(roles, eq(roles.id, ids.id))
    .orderBy(...ids.orderBy);
}

export async function pageRoles({
  db,
  caller,
  request,
}: ServiceContext & { request: RolePageRequest }): Promise<Page<Role>> {
  const rows = await rolePageQuery(db, caller.tenantId, request);
  return pageOfCountedRows(request, rows, toRole, () =>
    roleCountQuery(db, caller.tenantId, request.filter),
  );
}
