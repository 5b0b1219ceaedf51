import { paths, type AppPath } from '../../lib/paths';
import { canOpen, type Grants } from '../route-access';

export interface MenuItem {
  label: string;
  to: AppPath;
}
export interface MenuGroup {
  label: string;
  items: MenuItem[];
}
export type MenuEntry = MenuItem | MenuGroup;

/**
 * Where each screen sits in the menu. What a user may open is not decided here but by the
 * routes' permissions (route-access.ts), the ones the router's guard enforces.
 */
const tenantMenu: MenuEntry[] = [
  { label: 'nav.home', to: paths.home },
  { label: 'nav.projects', items: [{ label: 'nav.all', to: paths.projects }] },
  {
    label: 'nav.administration',
    items: [
      { label: 'nav.users', to: paths.users },
      { label: 'nav.roles', to: paths.roles },
      { label: 'nav.permissions', to: paths.permissions },
      { label: 'nav.clients', to: paths.clients },
      { label: 'nav.webhooks', to: paths.webhooks },
      { label: 'nav.auditLog', to: paths.auditLog },
    ],
  },
];
// Super administrators work on tenants, and watch the mail that did not leave: their Home
// shows nothing but a notice.
const superAdminMenu: MenuEntry[] = [
  { label: 'nav.tenants', to: paths.tenants },
  { label: 'nav.mailQueue', to: paths.mailQueue },
];

/** The menu of a signed-in user: the screens they may open, groups left without one hidden. */
export function menuEntries(grants: Grants): MenuEntry[] {
  const may = (item: MenuItem) => canOpen(grants, item.to);
  return (grants.superAdmin ? superAdminMenu : tenantMenu).flatMap((entry): MenuEntry[] => {
    if (!('items' in entry)) return may(entry) ? [entry] : [];
    const items = entry.items.filter(may);
    return items.length > 0 ? [{ ...entry, items }] : [];
  });
}
