import { SUPER_ADMIN_ROLE, type SystemPermission } from '@tc/contract/permissions';
import type { Session } from '../lib/session';
import { paths, type AppPath } from '../lib/paths';

/**
 * What a console route asks of the signed-in user: a permission of their token, or being a
 * super administrator. The server checks every call again; the console only avoids opening a
 * screen whose requests would be refused.
 */
export type RoutePermission = SystemPermission | typeof SUPER_ADMIN_ROLE;

/** The `handle` of a route that needs a permission; the router's one guard reads it. */
export interface PermissionHandle {
  permission: RoutePermission;
}

/**
 * The permission each screen needs, by path. The routes' handles, their loaders and the
 * navigation menu all read this one table, so the menu never offers a screen the guard refuses.
 * A path not listed is open to every signed-in user.
 */
export const routePermissions: Partial<Record<AppPath, RoutePermission>> = {
  [paths.tenants]: SUPER_ADMIN_ROLE,
  [paths.mailQueue]: SUPER_ADMIN_ROLE,
  [paths.users]: 'users:read',
  [paths.roles]: 'roles:read',
  [paths.permissions]: 'permissions:read',
  [paths.projects]: 'projects:read',
  [paths.clients]: 'clients:read',
  [paths.usersImport]: 'users:write',
  [paths.webhooks]: 'webhooks:read',
  [paths.auditLog]: 'audit:read',
  // Read-only without tenant:write; super administrators have no tenant to set.
  [paths.settings]: 'tenant:read',
};

/** The part of a session that decides what it may open. */
export type Grants = Pick<Session, 'superAdmin' | 'permissions'>;

export function isAllowed(grants: Grants | null, permission: RoutePermission | undefined): boolean {
  if (!grants) return false;
  if (permission === undefined) return true;
  if (permission === SUPER_ADMIN_ROLE) return grants.superAdmin;
  // The server refuses super administrators every tenant's data, whatever their token holds.
  return !grants.superAdmin && grants.permissions.includes(permission);
}

export const canOpen = (grants: Grants | null, path: AppPath) =>
  isAllowed(grants, routePermissions[path]);

/** A route handle for `path`: its permission, if it needs one. */
export function permissionHandle(path: AppPath): PermissionHandle | undefined {
  const permission = routePermissions[path];
  return permission ? { permission } : undefined;
}

function isPermissionHandle(handle: unknown): handle is PermissionHandle {
  return typeof handle === 'object' && handle !== null && 'permission' in handle;
}

/** The permissions a matched branch of routes needs, read from their handles. */
export function requiredPermissions(matches: readonly { handle: unknown }[]): RoutePermission[] {
  return matches.flatMap(({ handle }) => (isPermissionHandle(handle) ? [handle.permission] : []));
}
