import { randomBytes } from 'node:crypto';
import { insertRole } from '../../modules/roles';
import { insertUser } from '../../modules/users';
import { api, createSignedInTenant, signIn, type TenantFixture } from '../fixtures';
import { TEST_PASSWORD, type TestServer } from '../harness';

const suffix = () => randomBytes(4).toString('hex');

/** A tenant with its admin signed in, and one row of every entity to aim requests at. */
export interface SeededTenant extends TenantFixture {
  token: string;
  ids: Record<TenantEntity, string>;
}

export type TenantEntity = 'users' | 'roles' | 'permissions' | 'projects' | 'clients';
export const TENANT_ENTITIES: TenantEntity[] = [
  'users',
  'roles',
  'permissions',
  'projects',
  'clients',
];

/** Valid create bodies, given ids that already exist in the same tenant. */
export const validCreate: Record<
  TenantEntity,
  (t: SeededTenant | TenantFixture) => Record<string, unknown>
> = {
  users: (t) => ({
    firstName: 'Grace',
    lastName: 'Hopper',
    email: `grace.${suffix()}@example.test`,
    roleId: t.memberRoleId,
    status: 'active',
  }),
  roles: () => ({ name: `Role ${suffix()}`, description: 'A role.', status: 'active' }),
  permissions: (t) => ({ name: `reports:${suffix()}`, roleIds: [t.adminRoleId] }),
  projects: () => ({
    name: `Project ${suffix()}`,
    projectNumber: `P-${suffix()}`,
    budget: '1000.00',
    country: 'DE',
  }),
  clients: () => ({
    clientId: `app-${suffix()}`,
    name: 'Partner portal',
    type: 'public',
    redirectUris: ['https://partner.example.test/callback'],
    grantTypes: ['authorization_code', 'refresh_token'],
  }),
};

export async function createRow(
  server: TestServer,
  tenant: SeededTenant | (TenantFixture & { token: string }),
  entity: TenantEntity,
) {
  const response = await api(server, `/${entity}/create`, tenant.token, {
    method: 'POST',
    body: JSON.stringify(validCreate[entity](tenant)),
  });
  if (response.status !== 201)
    throw new Error(`${entity}/create: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: Record<string, unknown> & { id: string } }).data;
}

export async function seedTenant(server: TestServer): Promise<SeededTenant> {
  const withToken = await createSignedInTenant(server);
  const ids = {} as Record<TenantEntity, string>;
  for (const entity of TENANT_ENTITIES)
    ids[entity] = (await createRow(server, withToken, entity)).id;
  return { ...withToken, ids };
}

/** A user of the tenant whose own role holds exactly these permissions, signed in. */
export async function limitedUser(server: TestServer, tenant: TenantFixture, names: string[]) {
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

/** The access token of such a user. */
export async function signInWithPermissions(
  server: TestServer,
  tenant: TenantFixture,
  names: string[],
) {
  return (await limitedUser(server, tenant, names)).token;
}

/** The row as its own tenant sees it, to prove that nothing changed. */
export async function readRow(
  server: TestServer,
  tenant: SeededTenant,
  entity: TenantEntity,
  id: string,
) {
  const response = await api(server, `/${entity}/${id}`, tenant.token);
  return { status: response.status, body: await response.json() };
}
