import { and, eq } from 'drizzle-orm';
import { ADMIN_ROLE } from '@tc/contract/permissions';
import type {
  CreatePermission,
  Permission,
  PermissionPageRequest,
  UpdatePermission,
} from '@tc/contract/permissions-api';
import type { Database } from '../../db/database';
import { permissions, rolePermissions } from '../../db/schema/identity';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { badRequest, conflict, type FieldProblems } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { recordChange, type ChangeAction } from '../audit';
import { requireHoldsAll } from '../roles';
import { builtInRoleId, requireRolesInTenant } from '../roles';
import { findPermission, pagePermissions } from './queries';

/** Replaces the roles holding a permission, after checking they are roles of this tenant. */
async function assignRoles(tx: Database, tenantId: string, permissionId: string, ids: string[]) {
  await requireRolesInTenant(tx, tenantId, ids);
  await tx.delete(rolePermissions).where(eq(rolePermissions.permissionId, permissionId));
  await tx
    .insert(rolePermissions)
    .values([...new Set(ids)].map((roleId) => ({ tenantId, roleId, permissionId })));
}

const UNIQUE_NAME = {
  permissions_tenant_name_key: { field: 'name', code: 'permission.name_taken' },
} as const;

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
  const errors: FieldProblems = {};
  if (data.name !== before.name) errors.name = 'permission.system_renamed';
  const adminId = await builtInRoleId(tx, tenantId, ADMIN_ROLE);
  if (adminId && !data.roleIds.includes(adminId)) {
    errors.roleIds = 'role.admin_keeps_system_permissions';
  }
  if (Object.keys(errors).length > 0) {
    throw badRequest('permission.system_changed', { name: before.name }, errors);
  }
}

export async function getPermission({ db, caller, id }: ServiceContext & { id: string }) {
  return findPermission(db, caller.tenantId, id);
}

export async function createPermission({
  db,
  caller,
  data,
}: ServiceContext & { data: CreatePermission }) {
  return withUniqueFields(
    () =>
      db.transaction(async (tx) => {
        const { tenantId } = caller;
        // A new permission is held by nobody yet: only the Admin may hand it out.
        requireHoldsAll(caller, [data.name], 'grant.permission_not_held');
        const [created] = await tx
          .insert(permissions)
          .values({ tenantId, name: data.name, description: data.description || null })
          .returning({ id: permissions.id });
        await assignRoles(tx, tenantId, created!.id, data.roleIds);
        const after = await findPermission(tx, tenantId, created!.id);
        await recordChange(tx, changeOf(caller, 'create', after.id, { after }));
        return after;
      }),
    UNIQUE_NAME,
  );
}

export async function updatePermission({
  db,
  caller,
  data,
}: ServiceContext & { data: UpdatePermission }) {
  return withUniqueFields(
    () =>
      db.transaction(async (tx) => {
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
          requireHoldsAll(caller, [data.name], 'grant.permission_not_held');
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
      }),
    UNIQUE_NAME,
  );
}

export async function deletePermission({ db, caller, id }: ServiceContext & { id: string }) {
  await db.transaction(async (tx) => {
    const before = await findPermission(tx, caller.tenantId, id);
    if (before.system) {
      throw conflict('permission.system_deleted', { name: before.name });
    }
    await tx
      .delete(permissions)
      .where(and(eq(permissions.id, id), eq(permissions.tenantId, caller.tenantId)));
    await recordChange(tx, changeOf(caller, 'delete', id, { before }));
  });
}

function changeOf(
  caller: ServiceContext['caller'],
  action: ChangeAction,
  entityId: string,
  states: { before?: Permission; after?: Permission },
) {
  const { tenantId, userId: actorId } = caller;
  return { tenantId, actorId, entity: 'permissions', action, entityId, ...states };
}

export const permissionsService: CrudService<
  Permission,
  PermissionPageRequest,
  CreatePermission,
  UpdatePermission
> = {
  page: pagePermissions,
  get: getPermission,
  create: createPermission,
  update: updatePermission,
  remove: deletePermission,
};
