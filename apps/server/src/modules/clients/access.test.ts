import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { insertUser } from '../users';

let server: TestServer;
let tenantA: TenantFixture;
let tenantB: TenantFixture;
let adminA: string;
let adminB: string;
/** Holds clients:read only. */
let reader: string;
/** Holds clients:read and clients:write, nothing else. */
let editor: string;
let member: string;
/** A role granting users:write, which the editor does not hold. */
let powerfulRoleId: string;
/** A role granting clients:read, which the editor holds. */
let modestRoleId: string;

async function userWith(tenant: TenantFixture, roleId: string) {
  const email = `u.${randomUUID().slice(0, 8)}@${tenant.domain}`;
  await insertUser(server.database.db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Test',
    lastName: 'User',
    roleId,
    password: tenant.password,
  });
  return (await signIn(server, tenant.name, email, tenant.password)).access_token;
}

const roleWith = (tenant: TenantFixture, names: string[]) =>
  insertRole(server.database.db, {
    tenantId: tenant.tenantId,
    name: `Role ${randomUUID().slice(0, 8)}`,
    permissionIds: names.map((name) => tenant.permissionIds.get(name)!),
  });

beforeAll(async () => {
  server = await startTestServer();
  tenantA = await createTenant(server.database.db);
  tenantB = await createTenant(server.database.db);
  adminA = (await signIn(server, tenantA.name, tenantA.adminEmail, tenantA.password)).access_token;
  adminB = (await signIn(server, tenantB.name, tenantB.adminEmail, tenantB.password)).access_token;
  reader = await userWith(tenantA, await roleWith(tenantA, ['clients:read']));
  editor = await userWith(tenantA, await roleWith(tenantA, ['clients:read', 'clients:write']));
  member = await userWith(tenantA, tenantA.memberRoleId);
  powerfulRoleId = await roleWith(tenantA, ['users:write']);
  modestRoleId = await roleWith(tenantA, ['clients:read']);
});
afterAll(() => server?.close());

const send = (token: string, method: string, path: string, body?: unknown) =>
  api(server, path, token, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const service = (serviceRoleIds: string[] = []) => ({
  clientId: `svc-${randomUUID().slice(0, 8)}`,
  name: 'Nightly export',
  type: 'confidential',
  grantTypes: ['client_credentials'],
  serviceRoleIds,
});

async function created(token: string, body: Record<string, unknown>) {
  const response = await send(token, 'POST', '/clients/create', body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()).data as { id: string };
}

describe('permissions', () => {
  it('the Admin role holds clients:read and clients:write', async () => {
    expect((await send(adminA, 'POST', '/clients/page', {})).status).toBe(200);
    await created(adminA, service());
  });

  it('a user without clients:write reads but cannot write', async () => {
    expect((await send(reader, 'POST', '/clients/page', {})).status).toBe(200);
    const refused = await send(reader, 'POST', '/clients/create', service());
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('auth.permission_required');
    const { id } = await created(adminA, service());
    expect((await send(reader, 'POST', `/clients/${id}/rotate-secret`)).status).toBe(403);
    expect((await send(reader, 'POST', `/clients/delete/${id}`)).status).toBe(403);
  });

  it('the Member role cannot read clients', async () => {
    const response = await send(member, 'POST', '/clients/page', {});
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      code: 'auth.permission_required',
      params: { permission: 'clients:read' },
    });
  });
});

describe('service roles: nobody grants what they do not hold', () => {
  it('refuses a service role whose permissions the caller does not hold', async () => {
    const response = await send(editor, 'POST', '/clients/create', service([powerfulRoleId]));
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe('grant.role_not_held');
  });

  it('takes a service role whose permissions the caller holds', async () => {
    await created(editor, service([modestRoleId]));
  });

  it('refuses the Admin role to a non-administrator', async () => {
    const response = await send(editor, 'POST', '/clients/create', service([tenantA.adminRoleId]));
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe('grant.admin_role_give');
  });

  it('refuses to add a role on update, and to rotate the secret that carries it', async () => {
    const { id } = await created(adminA, service([powerfulRoleId]));
    const body = { ...service([powerfulRoleId]), id };
    const edit = await send(editor, 'PUT', '/clients/update', body);
    // Keeping a role the client already has gives nothing new.
    expect(edit.status).toBe(200);
    const rotate = await send(editor, 'POST', `/clients/${id}/rotate-secret`);
    expect(rotate.status).toBe(403);
    expect((await rotate.json()).code).toBe('grant.role_not_held');

    const { id: other } = await created(editor, service());
    const add = await send(editor, 'PUT', '/clients/update', {
      ...service([powerfulRoleId]),
      id: other,
    });
    expect(add.status).toBe(403);
  });

  it("refuses another tenant's role", async () => {
    const response = await send(adminB, 'POST', '/clients/create', service([modestRoleId]));
    expect(response.status).toBe(400);
    expect((await response.json()).fields.serviceRoleIds.code).toBe('role.unknown');
  });
});

describe('tenant isolation', () => {
  it("answers another tenant's client as missing, on every route", async () => {
    const { id } = await created(adminA, service());
    const get = await send(adminB, 'GET', `/clients/${id}`);
    expect(get.status).toBe(404);
    expect((await get.json()).code).toBe('client.not_found');
    expect((await send(adminB, 'PUT', '/clients/update', { ...service(), id })).status).toBe(404);
    expect((await send(adminB, 'POST', `/clients/${id}/rotate-secret`)).status).toBe(404);
    expect((await send(adminB, 'POST', `/clients/delete/${id}`)).status).toBe(404);
    expect((await send(adminA, 'GET', `/clients/${id}`)).status).toBe(200);
  });

  it("lists only the caller's tenant's clients", async () => {
    const { id } = await created(adminA, service());
    const page = await (await send(adminB, 'POST', '/clients/page', { pageSize: 100 })).json();
    const ids = (page.data.data as { id: string }[]).map((row) => row.id);
    expect(ids).not.toContain(id);
  });

  it('lets two tenants use the same client ID', async () => {
    const body = service();
    await created(adminA, body);
    await created(adminB, body);
  });
});
