import { randomBytes } from 'node:crypto';
import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import { callApi } from '../fixtures';
import type { TestServer } from '../harness';
import { limitedUser, type SeededTenant } from './entities';

export const suffix = () => randomBytes(4).toString('hex');

/** The escalation matrices' permission sets: up to every system permission, never the Admin role. */
export const PERMISSION_SETS: Record<string, string[]> = {
  'users:read+write': ['users:read', 'users:write'],
  'roles:read+write': ['roles:read', 'roles:write'],
  'permissions:read+write': ['permissions:read', 'permissions:write'],
  'all three writes': SYSTEM_PERMISSIONS.filter((name) =>
    ['users', 'roles', 'permissions'].includes(name.split(':')[0]!),
  ),
  'every system permission': [...SYSTEM_PERMISSIONS],
};

/** A signed-in user whose own role holds exactly some permissions. */
export interface Limited {
  token: string;
  userId: string;
  roleId: string;
}

/** What the grant tests do in a seeded tenant, with its admin's token for the checks. */
export function grantFixtures(server: TestServer, tenant: SeededTenant) {
  const limited = (names: string[]): Promise<Limited> => limitedUser(server, tenant, names);

  /** A role made by the admin, holding these permissions. */
  async function roleWith(names: string[]) {
    const permissionIds = names.map((name) => tenant.permissionIds.get(name)!);
    const { body } = await callApi<{ id: string }>(server, tenant.token, 'POST', '/roles/create', {
      name: `Role ${suffix()}`,
      permissionIds,
    });
    return body.data.id;
  }

  /** A row as the admin sees it, to prove that nothing changed. */
  const read = async (entity: string, id: string) =>
    (await callApi(server, tenant.token, 'GET', `/${entity}/${id}`)).body.data as unknown as Record<
      string,
      unknown
    >;

  return { limitedUser: limited, roleWith, read };
}

/** A valid new user with this role. */
export const newUser = (roleId: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Eve',
  lastName: 'Escalate',
  email: `eve.${suffix()}@example.test`,
  roleId,
  status: 'active',
  ...extra,
});
