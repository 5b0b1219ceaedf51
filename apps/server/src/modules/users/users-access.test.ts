import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema/identity';
import {
  createSignedInTenant,
  api,
  refreshForm,
  signIn,
  tokenRequest,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { insertUser } from './queries';

let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;
let token: string;
let otherToken: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token, ...tenant } = await createSignedInTenant(server));
  ({ token: otherToken, ...other } = await createSignedInTenant(server));
});
afterAll(() => server?.close());

const send = (method: string, path: string, bearer: string, body?: unknown) =>
  api(server, path, bearer, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const newUser = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email: `${uniqueName('u')}@example.test`,
  roleId: tenant.memberRoleId,
  ...overrides,
});

async function create(body: Record<string, unknown>, bearer = token) {
  const response = await send('POST', '/users/create', bearer, body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Record<string, unknown> & { id: string } }).data;
}

/** A user of `tenant` with a password, signed in; answers the user id and tokens. */
async function signedInUser(roleId = tenant.adminRoleId) {
  const email = `${uniqueName('s')}@example.test`;
  const id = await insertUser(server.database.db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Sam',
    lastName: 'Signed',
    roleId,
    password: TEST_PASSWORD,
  });
  return { id, email, ...(await signIn(server, tenant.name, email, TEST_PASSWORD)) };
}

describe('sessions and self-protection', () => {
  it('deactivating a user ends their sessions: access token 401, refresh 400', async () => {
    const user = await signedInUser();
    expect((await send('GET', `/users/${user.id}`, user.access_token)).status).toBe(200);
    const response = await send('PUT', '/users/update', token, {
      id: user.id,
      firstName: 'Sam',
      lastName: 'Signed',
      email: user.email,
      roleId: tenant.adminRoleId,
      status: 'inactive',
    });
    expect(response.status).toBe(200);
    const open = await server.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
    expect(open).toEqual([]);
    expect((await send('GET', `/users/${user.id}`, user.access_token)).status).toBe(401);
    const refresh = await tokenRequest(server, tenant.name, refreshForm(user.refresh_token));
    expect(refresh.status).toBe(400);
  });

  it('deleting a user ends their sessions', async () => {
    const user = await signedInUser();
    expect((await send('POST', `/users/delete/${user.id}`, token)).status).toBe(200);
    expect((await send('POST', '/users/page', user.access_token, {})).status).toBe(401);
    const refresh = await tokenRequest(server, tenant.name, refreshForm(user.refresh_token));
    expect(refresh.status).toBe(400);
  });

  it('refuses to let administrators delete or deactivate themselves', async () => {
    const me = await signedInUser();
    const deleted = await send('POST', `/users/delete/${me.id}`, me.access_token);
    expect(deleted.status).toBe(400);
    expect((await deleted.json()).detail).toBe('You cannot delete your own account.');
    const deactivated = await send('PUT', '/users/update', me.access_token, {
      id: me.id,
      firstName: 'Sam',
      lastName: 'Signed',
      email: me.email,
      roleId: tenant.adminRoleId,
      status: 'inactive',
    });
    expect(deactivated.status).toBe(400);
    expect(await deactivated.json()).toMatchObject({
      detail: 'You cannot deactivate your own account.',
      errors: { status: 'You cannot deactivate yourself.' },
    });
    expect((await send('GET', `/users/${me.id}`, me.access_token)).status).toBe(200);
  });
});

describe('tenant isolation and permissions', () => {
  it('answers 404 to a token of tenant B for ids of tenant A and changes nothing', async () => {
    const created = await create(newUser());
    const body = { ...newUser({ roleId: other.memberRoleId }), id: created.id };
    expect((await send('GET', `/users/${created.id}`, otherToken)).status).toBe(404);
    expect((await send('PUT', '/users/update', otherToken, body)).status).toBe(404);
    expect((await send('POST', `/users/delete/${created.id}`, otherToken)).status).toBe(404);
    const page = await send('POST', '/users/page', otherToken, { pageSize: 100 });
    const ids = ((await page.json()).data.data as { id: string }[]).map((row) => row.id);
    expect(ids).not.toContain(created.id);
    const read = await send('GET', `/users/${created.id}`, token);
    expect((await read.json()).data).toEqual(created);
  });

  it('creates users in the caller’s tenant, whatever the body says', async () => {
    const created = await create({ ...newUser(), tenantId: other.tenantId });
    const [stored] = await server.database.db
      .select({ tenantId: users.tenantId })
      .from(users)
      .where(eq(users.id, created.id));
    expect(stored?.tenantId).toBe(tenant.tenantId);
  });

  it('answers 401 without a token and 403 on writes without users:write', async () => {
    expect((await send('POST', '/users/page', '', {})).status).toBe(401);
    const readerRole = await insertRole(server.database.db, {
      tenantId: tenant.tenantId,
      name: uniqueName('Reader'),
      permissionIds: [tenant.permissionIds.get('users:read')!],
    });
    const reader = await signedInUser(readerRole);
    const bearer = reader.access_token;
    expect((await send('POST', '/users/page', bearer, {})).status).toBe(200);
    expect((await send('GET', `/users/${reader.id}`, bearer)).status).toBe(200);
    expect((await send('POST', '/users/create', bearer, newUser())).status).toBe(403);
    const update = { ...newUser(), id: reader.id };
    expect((await send('PUT', '/users/update', bearer, update)).status).toBe(403);
    expect((await send('POST', `/users/delete/${tenant.adminId}`, bearer)).status).toBe(403);

    const noneRole = await insertRole(server.database.db, {
      tenantId: tenant.tenantId,
      name: uniqueName('None'),
      permissionIds: [],
    });
    const nobody = await signedInUser(noneRole);
    expect((await send('POST', '/users/page', nobody.access_token, {})).status).toBe(403);
  });
});
