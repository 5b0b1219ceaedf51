import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../fixtures';
import { startTestServer, type TestServer } from '../harness';
import {
  readRow,
  seedTenant,
  signInWithPermissions,
  TENANT_ENTITIES,
  validCreate,
  type SeededTenant,
} from './entities';

let server: TestServer;
let tenant: SeededTenant;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await seedTenant(server);
});
afterAll(() => server?.close());

describe.each(TENANT_ENTITIES)('permission matrix: %s', (entity) => {
  it(`a role with ${entity}:read but not ${entity}:write reads, and gets 403 on every write`, async () => {
    const token = await signInWithPermissions(server, tenant, [`${entity}:read`]);
    const id = tenant.ids[entity];
    const before = await readRow(server, tenant, entity, id);
    const page = await api(server, `/${entity}/page`, token, { method: 'POST', body: '{}' });
    expect(page.status).toBe(200);
    expect((await api(server, `/${entity}/${id}`, token)).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', `/${entity}/create`, validCreate[entity](tenant)],
      ['PUT', `/${entity}/update`, { ...validCreate[entity](tenant), id }],
      ['POST', `/${entity}/delete/${id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const response = await api(server, path, token, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect(await readRow(server, tenant, entity, id)).toEqual(before);
  });

  it(`a role without ${entity}:read gets 403 on the list and on a row`, async () => {
    const token = await signInWithPermissions(server, tenant, ['tenant:read']);
    expect(
      (await api(server, `/${entity}/page`, token, { method: 'POST', body: '{}' })).status,
    ).toBe(403);
    expect((await api(server, `/${entity}/${tenant.ids[entity]}`, token)).status).toBe(403);
  });
});

describe('audit permission', () => {
  it('audit:read is needed to list the audit log', async () => {
    const token = await signInWithPermissions(server, tenant, ['users:read']);
    expect((await api(server, '/audit/page', token, { method: 'POST', body: '{}' })).status).toBe(
      403,
    );
  });
});
