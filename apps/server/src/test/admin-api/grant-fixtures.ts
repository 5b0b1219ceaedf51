import { randomBytes } from 'node:crypto';
import { insertRole } from '../../modules/roles/service';
import { insertUser } from '../../modules/users/service';
import { callApi, signIn } from '../fixtures';
import { TEST_PASSWORD, type TestServer } from '../harness';
import type { SeededTenant } from './entities';

export const suffix = () => randomBytes(4).toString('hex');

/** A signed-in user whose own role holds exactly some permissions. */
export interface Limited {
  token: string;
  userId: string;
  roleId: string;
}

/** What the grant tests do in a seeded tenant, with its admin's token for the checks. */
export function grantFixtures(server: TestServer, tenant: SeededTenant) {
  /** A user whose own role holds exactly these permissions, signed in. */
  async function limitedUser(names: string[]): Promise<Limited> {
    const email = `limited.${suffix()}@example.test`;
    const ids = await server.database.db.transaction(async (tx) => {
      const roleId = await insertRole(tx, {
        tenantId: tenant.tenantId,
        name: `Limited ${suffix()}`,
        permissionIds: names.map((name) => tenant.permissionIds.get(name)!),
      });
      const userId = await insertUser(tx, {
        tenantId: tenant.tenantId,
        email,
        firstName: 'Lim',
        lastName: 'Ited',
        roleId,
        password: TEST_PASSWORD,
      });
      return { roleId, userId };
    });
    const { access_token: token } = await signIn(server, tenant.name, email, TEST_PASSWORD);
    return { token, ...ids };
  }

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

  return { limitedUser, roleWith, read };
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
