import { and, count, eq, inArray } from 'drizzle-orm';
import { ADMIN_ROLE } from '@tc/contract/permissions';
import type { CreateRole, Role, RolePageRequest, UpdateRole } from '@tc/contract/roles';
import type { Database } from '../../db/database';
import { foreignKeyViolation } from '../../db/errors';
import { permissions, rolePermissions, roles } from '../../db/schema/identity';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { badRequest, conflict, type FieldProblems } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { recordChange, type ChangeAction } from '../audit';
import { requireAdministrator, requireHoldsAll } from './grants';
import { insertRole, grantPermissions, findRole, pageRoles } from './queries';

/**
 * The role `roleId` of this tenant, for other modules that assign roles (users, permissions).
 * A role of another tenant is answered exactly like a missing one.
 */
export async function requireRole(
  db: Database,
  tenantId: string,
  roleId: string,
  field = 'roleId',
): Promise<{ id: string; name: string; status: string; isSystem: boolean }> {
  const [role] = await db
    .select({ id: roles.id, name: roles.name, status: roles.status, isSystem: roles.isSystem })
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.tenantId, tenantId)));
  if (!role) throw badRequest('role.not_in_tenant', {}, { [field]: 'role.unknown' });
  return role;
}

/** Checks that every id is a role of this tenant (the roles a permission is given to). */
export async function requireRolesInTenant(
  db: Database,
  tenantId: string,
  roleIds: readonly string[],
  field = 'roleIds',
): Promise<void> {
  const unique = [...new Set(roleIds)];
  if (unique.length === 0) return;
  const [found] = await db
    .select({ count: count() })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), inArray(roles.id, unique)));
  if (found!.count !== unique.length) {
    throw badRequest('roles.not_in_tenant', {}, { [field]: 'role.unknown' });
  }
}

/** The names of these permissions, after checking every id is a permission of this tenant. */
async function requirePermissionsInTenant(
  db: Database,
  tenantId: string,
  ids: string[],
): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await db
    .select({ name: permissions.name })
    .from(permissions)
    .where(and(eq(permissions.tenantId, tenantId), inArray(permissions.id, unique)));
  if (found.length !== unique.length) {
    throw badRequest('permissions.not_in_tenant', {}, { permissionIds: 'permission.unknown' });
  }
  return found.map((row) => row.name);
}

/** A duplicate name as the user-facing 409 it is, on the field to correct. */
const UNIQUE_NAME = { roles_tenant_name_key: { field: 'name', code: 'role.name_taken' } } as const;

/** A user given the role between the count check and the delete (users.role_id has no cascade). */
function translateHeldRole(error: unknown): never {
  if (foreignKeyViolation(error)) {
    throw conflict('role.just_given');
  }
  throw error;
}

const samePermissions = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === new Set(b).size && a.every((id) => b.includes(id));

/** Built-in roles keep their name and stay active; Admin keeps every permission it holds. */
function guardBuiltInRole(before: Role, data: UpdateRole) {
  if (!before.system) return;
  const errors: FieldProblems = {};
  const params = { name: before.name };
  if (data.name !== before.name) errors.name = { code: 'role.built_in_renamed', params };
  if (data.status === 'inactive') errors.status = { code: 'role.built_in_deactivated', params };
  const changesPermissions =
    data.permissionIds !== undefined && !samePermissions(data.permissionIds, before.permissionIds);
  if (before.name === ADMIN_ROLE && changesPermissions) {
    errors.permissionIds = 'role.admin_keeps_permissions';
  }
  if (Object.keys(errors).length > 0) {
    throw badRequest('role.built_in_changed', params, errors);
  }
}

export async function getRole({ db, caller, id }: ServiceContext & { id: string }) {
  return findRole(db, caller.tenantId, id);
}

export async function createRole({ db, caller, data }: ServiceContext & { data: CreateRole }) {
  return withUniqueFields(
    () =>
      db.transaction(async (tx) => {
        const { tenantId } = caller;
        const granted = await requirePermissionsInTenant(tx, tenantId, data.permissionIds ?? []);
        requireHoldsAll(caller, granted, 'grant.role_not_held', { role: data.name });
        const id = await insertRole(tx, {
          tenantId,
          name: data.name,
          description: data.description || null,
          status: data.status,
          permissionIds: data.permissionIds ?? [],
        });
        const after = await findRole(tx, tenantId, id);
        await recordChange(tx, changeOf(caller, 'create', id, { after }));
        return after;
      }),
    UNIQUE_NAME,
  );
}

export async function updateRole({ db, caller, data }: ServiceContext & { data: UpdateRole }) {
  return withUniqueFields(
    () =>
      db.transaction(async (tx) => {
        const { tenantId } = caller;
        const before = await findRole(tx, tenantId, data.id);
        if (before.system && before.name === ADMIN_ROLE) {
          requireAdministrator(caller, 'grant.admin_role_edit');
        }
        guardBuiltInRole(before, data);
        // Whoever edits a role must hold everything it grants afterwards: a rename or a
        // reactivation hands its permissions out as surely as adding them does.
        const granted =
          data.permissionIds === undefined
            ? before.permissions
            : await requirePermissionsInTenant(tx, tenantId, data.permissionIds);
        requireHoldsAll(caller, granted, 'grant.role_not_held', { role: before.name });
        await tx
          .update(roles)
          .set({
            name: data.name,
            description: data.description === undefined ? undefined : data.description || null,
            status: data.status,
            updatedAt: new Date(),
          })
          .where(and(eq(roles.id, data.id), eq(roles.tenantId, tenantId)));
        if (data.permissionIds !== undefined) {
          await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, data.id));
          await grantPermissions(tx, tenantId, data.id, data.permissionIds);
        }
        const after = await findRole(tx, tenantId, data.id);
        await recordChange(tx, changeOf(caller, 'update', data.id, { before, after }));
        return after;
      }),
    UNIQUE_NAME,
  );
}

export async function deleteRole({ db, caller, id }: ServiceContext & { id: string }) {
  await db
    .transaction(async (tx) => {
      const before = await findRole(tx, caller.tenantId, id);
      if (before.system) {
        throw conflict('role.built_in_deleted', { name: before.name });
      }
      if (before.userCount > 0) {
        throw conflict('role.held_by_users', { count: before.userCount });
      }
      await tx.delete(roles).where(and(eq(roles.id, id), eq(roles.tenantId, caller.tenantId)));
      await recordChange(tx, changeOf(caller, 'delete', id, { before }));
    })
    .catch(translateHeldRole);
}

function changeOf(
  caller: ServiceContext['caller'],
  action: ChangeAction,
  entityId: string,
  states: { before?: Role; after?: Role },
) {
  const { tenantId, userId: actorId } = caller;
  return { tenantId, actorId, entity: 'roles', action, entityId, ...states };
}

export const rolesService: CrudService<Role, RolePageRequest, CreateRole, UpdateRole> = {
  page: pageRoles,
  get: getRole,
  create: createRole,
  update: updateRole,
  remove: deleteRole,
};
