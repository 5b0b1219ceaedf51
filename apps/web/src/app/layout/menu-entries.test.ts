import { MEMBER_PERMISSIONS, SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import { describe, expect, it } from 'vitest';
import { paths } from '../../lib/paths';
import { canOpen, type Grants } from '../route-access';
import { menuEntries, type MenuEntry } from './menu-entries';

const linksOf = (entries: MenuEntry[]) =>
  entries.flatMap((entry) => ('items' in entry ? entry.items : [entry])).map((item) => item.to);

const tenantUser = (permissions: string[]): Grants => ({ superAdmin: false, permissions });

describe('the navigation menu', () => {
  it('offers a tenant administrator Home, Projects and the administration screens', () => {
    const entries = menuEntries(tenantUser([...SYSTEM_PERMISSIONS]));
    expect(entries.map((entry) => entry.label)).toEqual([
      'nav.home',
      'nav.projects',
      'nav.administration',
    ]);
    expect(linksOf(entries)).toEqual([
      paths.home,
      paths.projects,
      paths.users,
      paths.roles,
      paths.permissions,
      paths.clients,
      paths.webhooks,
      paths.auditLog,
    ]);
  });

  it('leaves out the screens a user may not read, and a group left empty', () => {
    expect(linksOf(menuEntries(tenantUser(['users:read'])))).toEqual([paths.home, paths.users]);
    const none = menuEntries(tenantUser([]));
    expect(none.map((entry) => entry.label)).toEqual(['nav.home']);
  });

  it('offers a super administrator Tenants and the undelivered mail only', () => {
    expect(linksOf(menuEntries({ superAdmin: true, permissions: [] }))).toEqual([
      paths.tenants,
      paths.mailQueue,
    ]);
  });

  it('never offers a screen the router would refuse', () => {
    const users = [
      tenantUser([...SYSTEM_PERMISSIONS]),
      tenantUser([...MEMBER_PERMISSIONS]),
      tenantUser(['roles:read', 'projects:read']),
      tenantUser(['clients:read']),
      { superAdmin: true, permissions: [...SYSTEM_PERMISSIONS] },
    ];
    for (const grants of users) {
      for (const path of linksOf(menuEntries(grants))) expect(canOpen(grants, path)).toBe(true);
    }
  });
});
