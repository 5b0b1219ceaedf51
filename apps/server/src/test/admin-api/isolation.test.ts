import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn } from '../fixtures';
import { SUPER_ADMIN_PASSWORD, startTestServer, type TestServer } from '../harness';
import { readRow, seedTenant, TENANT_ENTITIES, validCreate, type SeededTenant } from './entities';

let server: TestServer;
let a: SeededTenant;
let b: SeededTenant;
let superToken: string;

beforeAll(async () => {
  server = await startTestServer();
  a = await seedTenant(server);
  b = await seedTenant(server);
  superToken = (await signIn(server, 'master', 'admin@example.com', SUPER_ADMIN_PASSWORD))
    .access_token;
});
afterAll(() => server?.close());

describe.each(TENANT_ENTITIES)('cross-tenant matrix: %s', (entity) => {
  it('a token of tenant B with an id of tenant A answers 404 on every route and changes nothing', async () => {
    const id = a.ids[entity];
    const before = await readRow(server, a, entity, id);
    expect(before.status).toBe(200);
    const attempts: Array<[string, string, RequestInit]> = [
      ['GET', `/${entity}/${id}`, {}],
      ['PUT', `/${entity}/update`, { body: JSON.stringify({ ...validCreate[entity](b), id }) }],
      ['POST', `/${entity}/delete/${id}`, {}],
    ];
    if (entity === 'projects') {
      attempts.push([
        'PUT',
        `/projects/${id}/logo`,
        { body: Buffer.from('GIF89a'), headers: { 'content-type': 'image/gif' } },
      ]);
    }
    for (const [method, path, init] of attempts) {
      const response = await api(server, path, b.token, { ...init, method });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect(await readRow(server, a, entity, id)).toEqual(before);
  });

  it('tenant B’s list never shows tenant A’s rows', async () => {
    const response = await api(server, `/${entity}/page`, b.token, {
      method: 'POST',
      body: JSON.stringify({ pageIndex: 1, pageSize: 100 }),
    });
    expect(response.status).toBe(200);
    const rows = (await response.json()).data.data as Array<{ id: string }>;
    expect(rows.map((row) => row.id)).not.toContain(a.ids[entity]);
    expect(rows.map((row) => row.id)).toContain(b.ids[entity]);
  });

  it('a super administrator’s token is refused on tenant routes', async () => {
    const response = await api(server, `/${entity}/page`, superToken, {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(403);
  });
});

describe('cross-tenant references', () => {
  it('refuses a role, a permission holder or a person of another tenant', async () => {
    const user = await api(server, '/users/create', b.token, {
      method: 'POST',
      body: JSON.stringify({ ...validCreate.users(b), roleId: a.adminRoleId }),
    });
    expect(user.status).toBe(400);
    const permission = await api(server, '/permissions/create', b.token, {
      method: 'POST',
      body: JSON.stringify({ ...validCreate.permissions(b), roleIds: [a.ids.roles] }),
    });
    expect(permission.status).toBe(400);
    const project = await api(server, '/projects/create', b.token, {
      method: 'POST',
      body: JSON.stringify({
        ...validCreate.projects(b),
        ownerId: a.adminId,
        peopleIds: [a.ids.users],
      }),
    });
    expect(project.status).toBe(400);
  });

  it('tenant routes are refused to tenant tokens and the audit log stays per tenant', async () => {
    const tenants = await api(server, '/tenants/page', a.token, { method: 'POST', body: '{}' });
    expect(tenants.status).toBe(403);
    const audit = await api(server, '/audit/page', b.token, {
      method: 'POST',
      body: JSON.stringify({ pageIndex: 1, pageSize: 100 }),
    });
    expect(audit.status).toBe(200);
    const entityIds = ((await audit.json()).data.data as Array<{ entityId: string }>).map(
      (row) => row.entityId,
    );
    for (const id of Object.values(a.ids)) expect(entityIds).not.toContain(id);
  });
});
