import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ADMIN_ROLE, SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import type {
  CreatePermission,
  Permission,
  PermissionPageRequest,
  UpdatePermission,
} from '@tc/contract/permissions-api';
import type { Database } from '../../db/database';
import { uniqueViolation } from '../../db/errors';
import { permissions, rolePermissions, roles } from '../../db/schema/identity';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { badRequest, conflict, notFound } from '../../http/problem';
import { recordChange, type ChangeAction } from '../audit/record';
import { requireHoldsAll } from '../roles/grants';
import { builtInRoleId, requireRolesInTenant } from '../roles/service';

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

const permissionColumns = {
  id: permissions.id,
  name: permissions.name,
  description: permissions.description,
  system: permissions.isSystem,
  createdAt: permissions.createdAt,
  updatedAt: permissions.updatedAt,
};

function selectPermissions(db: Database, where: SQL | undefined) {
  return db.select(permissionColumns).from(permissions).where(where);
}

/** Rows with the roles holding them, fetched for all rows in one query. */
async function toPermissions(
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
async function findPermission(db: Database, tenantId: string, id: string): Promise<Permission> {
  const rows = await selectPermissions(
    db,
    and(eq(permissions.id, id), eq(permissions.tenantId, tenantId)),
  );
  const [permission] = await toPermissions(db, rows);
  if (!permission) throw notFound('This permission does not exist.');
  return permission;
}

/** Replaces the roles holding a permission, after checking they are roles of this tenant. */
async function assignRoles(tx: Database, tenantId: string, permissionId: string, ids: string[]) {
  await requireRolesInTenant(tx, tenantId, ids);
  await tx.delete(rolePermissions).where(eq(rolePermissions.permissionId, permissionId));
  await tx
    .insert(rolePermissions)
    .values([...new Set(ids)].map((roleId) => ({ tenantId, roleId, permissionId })));
}

function translateConflict(error: unknown): never {
  if (uniqueViolation(error) === 'permissions_tenant_name_key') {
    const message = 'A permission with this name already exists.';
    throw conflict(message, { name: message });
  }
  throw error;
}

/**
 * System permissions keep their name, and the Admin role keeps every one of them, so the
 * tenant can never lock itself out of its own administration.
 */
async function guardSystemPermission(
  tx: Database,
  tenantId: string,
  before: Permission,
  data: UpdatePermission,
) {
  if (!before.system) return;
  const errors: Record<string, string> = {};
  if (data.name !== before.name) errors.name = 'System permissions cannot be renamed.';
  const adminId = await builtInRoleId(tx, tenantId, ADMIN_ROLE);
  if (adminId && !data.roleIds.includes(adminId)) {
    errors.roleIds = 'The Admin role always holds the system permissions.';
  }
  if (Object.keys(errors).length > 0) {
    throw badRequest(`The system permission ${before.name} cannot be changed this way.`, errors);
  }
}

export const permissionsService: CrudService<
  Permission,
  PermissionPageRequest,
  CreatePermission,
  UpdatePermission
> = {
  async page({ db, caller, request }) {
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
  },

  get: ({ db, caller, id }) => findPermission(db, caller.tenantId, id),

  async create({ db, caller, data }) {
    return db
      .transaction(async (tx) => {
        const { tenantId } = caller;
        // A new permission is held by nobody yet: only the Admin may hand it out.
        requireHoldsAll(caller, [data.name], `Giving the new permission to roles`);
        const [created] = await tx
          .insert(permissions)
          .values({ tenantId, name: data.name, description: data.description || null })
          .returning({ id: permissions.id });
        await assignRoles(tx, tenantId, created!.id, data.roleIds);
        const after = await findPermission(tx, tenantId, created!.id);
        await recordChange(tx, changeOf(caller, 'create', after.id, { after }));
        return after;
      })
      .catch(translateConflict);
  },

  async update({ db, caller, data }) {
    return db
      .transaction(async (tx) => {
        const { tenantId } = caller;
        const before = await findPermission(tx, tenantId, data.id);
        await guardSystemPermission(tx, tenantId, before, data);
        // The roles that would hold this name afterwards and did not before: all of them
        // when it is renamed, else the ones added.
        const gaining =
          data.name === before.name
            ? data.roleIds.filter((id) => !before.roleIds.includes(id))
            : data.roleIds;
        if (gaining.length > 0) {
          requireHoldsAll(caller, [data.name], `Giving this permission to more roles`);
        }
        await tx
          .update(permissions)
          .set({
            name: data.name,
            description: data.description === undefined ? undefined : data.description || null,
            updatedAt: new Date(),
          })
          .where(and(eq(permissions.id, data.id), eq(permissions.tenantId, tenantId)));
        await assignRoles(tx, tenantId, data.id, data.roleIds);
        const after = await findPermission(tx, tenantId, data.id);
        await recordChange(tx, changeOf(caller, 'update', data.id, { before, after }));
        return after;
      })
      .catch(translateConflict);
  },

  async remove({ db, caller, id }) {
    await db.transaction(async (tx) => {
      const before = await findPermission(tx, caller.tenantId, id);
      if (before.system) {
        throw conflict(`The system permission ${before.name} cannot be deleted.`);
      }
      await tx
        .delete(permissions)
        .where(and(eq(permissions.id, id), eq(permissions.tenantId, caller.tenantId)));
      await recordChange(tx, changeOf(caller, 'delete', id, { before }));
    });
  },
};

function changeOf(
  caller: ServiceContext['caller'],
  action: ChangeAction,
  entityId: string,
  states: { before?: Permission; after?: Permission },
) {
  const { tenantId, userId: actorId } = caller;
  return { tenantId, actorId, entity: 'permissions', action, entityId, ...states };
}
