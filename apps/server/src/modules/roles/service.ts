import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ADMIN_ROLE, type MEMBER_ROLE } from '@tc/contract/permissions';
import type { CreateRole, Role, RolePageRequest, UpdateRole } from '@tc/contract/roles';
import type { Database } from '../../db/database';
import { foreignKeyViolation } from '../../db/errors';
import { permissions, rolePermissions, roles, users } from '../../db/schema/identity';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { badRequest, conflict, notFound, type FieldProblems } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { recordChange, type ChangeAction } from '../audit';
import { requireAdministrator, requireHoldsAll } from './grants';

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

async function grantPermissions(
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

const roleColumns = {
  id: roles.id,
  name: roles.name,
  description: roles.description,
  status: roles.status,
  system: roles.isSystem,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
};

function selectRoles(db: Database, where: SQL | undefined) {
  return db.select(roleColumns).from(roles).where(where);
}

/**
 * Rows with their permissions and user counts, fetched for all rows at once; separate
 * queries rather than correlated subqueries keep every column reference typed.
 */
async function toRoles(
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
async function findRole(db: Database, tenantId: string, id: string): Promise<Role> {
  const rows = await selectRoles(db, and(eq(roles.id, id), eq(roles.tenantId, tenantId)));
  const [role] = await toRoles(db, rows);
  if (!role) throw notFound('role.not_found');
  return role;
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

export const rolesService: CrudService<Role, RolePageRequest, CreateRole, UpdateRole> = {
  async page({ db, caller, request }) {
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
  },

  get: ({ db, caller, id }) => findRole(db, caller.tenantId, id),

  async create({ db, caller, data }) {
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
  },

  async update({ db, caller, data }) {
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
  },

  async remove({ db, caller, id }) {
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
  },
};

function changeOf(
  caller: ServiceContext['caller'],
  action: ChangeAction,
  entityId: string,
  states: { before?: Role; after?: Role },
) {
  const { tenantId, userId: actorId } = caller;
  return { tenantId, actorId, entity: 'roles', action, entityId, ...states };
}
