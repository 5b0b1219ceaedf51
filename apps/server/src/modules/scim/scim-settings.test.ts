import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createSignedInTenant, signIn } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { newUser, roleWith, scimApplication } from '../../test/helpers/scim';
import { insertUser } from '../users';

// The tenant's SCIM choices through the settings API: read with tenant:read, changed with
// tenant:write, applied by the next SCIM request.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface View {
  scimNewUsers: string;
  scimDelete: string;
  scimBaseUrl: string;
}

describe('provisioning settings', () => {
  it('reads the defaults with the base URL, saves a change, and SCIM follows it', async () => {
    const tenant = await createSignedInTenant(server);
    const read = await callApi<View>(server, tenant.token, 'GET', '/settings/provisioning');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      scimNewUsers: 'invite',
      scimDelete: 'deactivate',
      scimBaseUrl: `${server.url}/scim/v2/${tenant.name}`,
    });
    const body = { scimNewUsers: 'activate', scimDelete: 'delete' };
    const saved = await callApi<View>(server, tenant.token, 'PUT', '/settings/provisioning', body);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject(body);
    const bad = await callApi<View>(server, tenant.token, 'PUT', '/settings/provisioning', {
      scimNewUsers: 'mail',
      scimDelete: 'delete',
    });
    expect(bad.status).toBe(400);

    const token = await scimApplication(server, tenant, 'app', [tenant.adminRoleId]);
    const scim = (method: string, path: string, payload?: unknown) =>
      fetch(`${server.url}/scim/v2/${tenant.name}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
    const created = (await (
      await scim('POST', '/Users', newUser('follows@example.org'))
    ).json()) as {
      id: string;
    };
    expect((await scim('DELETE', `/Users/${created.id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${created.id}`)).status).toBe(404);
  });

  it('needs tenant:read to read and tenant:write to change', async () => {
    const tenant = await createSignedInTenant(server);
    const roleId = await roleWith(server, tenant.tenantId, 'Viewers', ['tenant:read']);
    const email = `viewer${randomBytes(3).toString('hex')}@example.org`;
    await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'Vi',
      lastName: 'Ewer',
      roleId,
      password: TEST_PASSWORD,
    });
    const { access_token: viewer } = await signIn(server, tenant.name, email, TEST_PASSWORD);
    expect((await callApi(server, viewer, 'GET', '/settings/provisioning')).status).toBe(200);
    const change = await callApi(server, viewer, 'PUT', '/settings/provisioning', {
      scimNewUsers: 'activate',
      scimDelete: 'delete',
    });
    expect(change.status).toBe(403);
  });
});
