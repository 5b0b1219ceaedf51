import { MEMBER_PERMISSIONS, SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import { describe, expect, it } from 'vitest';
import { paths } from '../lib/paths';
import { canOpen, isAllowed, permissionHandle, requiredPermissions } from './route-access';

const admin = { superAdmin: false, permissions: [...SYSTEM_PERMISSIONS] };
const member = { superAdmin: false, permissions: [...MEMBER_PERMISSIONS] };
const usersOnly = { superAdmin: false, permissions: ['users:read'] };
const noPermissions = { superAdmin: false, permissions: [] };
const superAdmin = { superAdmin: true, permissions: [] };

const screens = [
  paths.tenants,
  paths.mailQueue,
  paths.users,
  paths.roles,
  paths.permissions,
  paths.projects,
  paths.clients,
];
const openScreens = (grants: Parameters<typeof canOpen>[0]) =>
  screens.filter((path) => canOpen(grants, path));

describe('which screens a user may open', () => {
  it('a tenant administrator or member opens every tenant screen, not Tenants', () => {
    const tenantScreens = [paths.users, paths.roles, paths.permissions, paths.projects];
    expect(openScreens(admin)).toEqual([...tenantScreens, paths.clients]);
    // Applications hold the tenant's sign-in set-up: members do not see them.
    expect(openScreens(member)).toEqual(tenantScreens);
  });

  it('a user opens the screens their permissions read, and nothing else', () => {
    expect(openScreens(usersOnly)).toEqual([paths.users]);
    expect(openScreens(noPermissions)).toEqual([]);
  });

  it('a super administrator opens Tenants and the mail queue only, even with tenant permissions in the token', () => {
    expect(openScreens(superAdmin)).toEqual([paths.tenants, paths.mailQueue]);
    expect(openScreens({ ...admin, superAdmin: true })).toEqual([paths.tenants, paths.mailQueue]);
  });

  it("the tenant's settings open with tenant:read (members read them), never for a super administrator", () => {
    expect(canOpen(admin, paths.settings)).toBe(true);
    expect(canOpen(member, paths.settings)).toBe(true);
    expect(canOpen(usersOnly, paths.settings)).toBe(false);
    expect(canOpen({ ...admin, superAdmin: true }, paths.settings)).toBe(false);
  });

  it('screens without a permission are open to every signed-in user, to no visitor', () => {
    for (const grants of [admin, noPermissions, superAdmin]) {
      expect(canOpen(grants, paths.home)).toBe(true);
      expect(canOpen(grants, paths.welcome)).toBe(true);
      expect(canOpen(grants, paths.account)).toBe(true);
    }
    expect(canOpen(null, paths.home)).toBe(false);
    expect(isAllowed(null, 'users:read')).toBe(false);
  });
});

describe('route handles', () => {
  it('carry the permission of their path, none for open paths', () => {
    expect(permissionHandle(paths.users)).toEqual({ permission: 'users:read' });
    expect(permissionHandle(paths.tenants)).toEqual({ permission: 'superAdmin' });
    expect(permissionHandle(paths.home)).toBeUndefined();
  });

  it('a matched branch needs the permissions of all its handles', () => {
    const matches = [
      { handle: undefined },
      { handle: { somethingElse: true } },
      { handle: permissionHandle(paths.roles) },
      { handle: { permission: 'users:read' } },
    ];
    expect(requiredPermissions(matches)).toEqual(['roles:read', 'users:read']);
    expect(requiredPermissions([])).toEqual([]);
  });
});
