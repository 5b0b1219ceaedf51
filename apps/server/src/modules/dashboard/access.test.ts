import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '@tc/contract/dashboard';
import { MASTER_REALM } from '@tc/contract/permissions';
import { api, callApi, createSignedInTenant, signIn } from '../../test/fixtures';
import {
  startTestServer,
  SUPER_ADMIN_PASSWORD,
  TEST_PASSWORD,
  type TestServer,
} from '../../test/harness';
import { insertRole } from '../roles';
import { insertUser } from '../users';

let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;

/** A user of the tenant whose role grants exactly these permissions. */
async function userWith(permissionNames: string[]) {
  const key = permissionNames.join('-').replace(/:/g, '_');
  const email = `${key}@${tenant.domain}`;
  await server.database.db.transaction(async (tx) => {
    const roleId = await insertRole(tx, {
      tenantId: tenant.tenantId,
      name: `Role ${key}`,
      permissionIds: permissionNames.map((name) => tenant.permissionIds.get(name)!),
    });
    await insertUser(tx, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'Uma',
      lastName: 'User',
      roleId,
      password: TEST_PASSWORD,
    });
  });
  return (await signIn(server, tenant.name, email, TEST_PASSWORD)).access_token;
}

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createSignedInTenant(server);
  await callApi(server, tenant.token, 'POST', '/projects/create', {
    name: 'Visible',
    projectNumber: 'V-1',
  });
});
afterAll(() => server?.close());

describe('GET /dashboard access', () => {
  it('is documented in the OpenAPI document', async () => {
    const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
    expect(document.paths['/api/v1.0/dashboard']).toHaveProperty('get');
    expect(document.components.schemas).toHaveProperty('Dashboard');
  });

  it('answers 401 without a valid token', async () => {
    expect((await api(server, '/dashboard')).status).toBe(401);
    expect((await api(server, '/dashboard', 'not-a-token')).status).toBe(401);
  });

  it('answers 403 to a super administrator: tenants only, no tenant data', async () => {
    const { access_token } = await signIn(
      server,
      MASTER_REALM,
      server.config.bootstrapAdminEmail,
      SUPER_ADMIN_PASSWORD,
    );
    const { status, body } = await callApi(server, access_token, 'GET', '/dashboard');
    expect(status).toBe(403);
    expect(body).toMatchObject({ status: 403 });
  });

  it('answers 403 without tenant:read', async () => {
    const token = await userWith(['projects:read']);
    const { status, body } = await callApi(server, token, 'GET', '/dashboard');
    expect(status).toBe(403);
    expect(body.detail).toContain('tenant:read');
  });

  it('leaves the audit entries out for a caller without audit:read', async () => {
    const token = await userWith(['tenant:read']);
    const { status, body } = await callApi<Dashboard>(server, token, 'GET', '/dashboard');
    expect(status).toBe(200);
    const data = body.data as unknown as Dashboard;
    expect(data.figures.projects).toBe(1);
    expect(data.recentActivity).toEqual([]);
    // The cached dashboard still carries them for those who may read them.
    const full = await callApi<Dashboard>(server, tenant.token, 'GET', '/dashboard');
    expect((full.body.data as unknown as Dashboard).recentActivity).not.toEqual([]);
  });
});
