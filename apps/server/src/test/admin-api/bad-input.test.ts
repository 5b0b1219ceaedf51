import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn } from '../fixtures';
import { SUPER_ADMIN_PASSWORD, startTestServer, type TestServer } from '../harness';
import { seedTenant, TENANT_ENTITIES, validCreate, type SeededTenant } from './entities';

let server: TestServer;
let tenant: SeededTenant;
let superToken: string;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await seedTenant(server);
  superToken = (await signIn(server, 'master', 'admin@example.com', SUPER_ADMIN_PASSWORD))
    .access_token;
});
afterAll(() => server?.close());

const RUNS = 40;

/** Any JSON at all, and valid bodies with one field replaced by anything. */
function bodies(valid: Record<string, unknown>) {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.jsonValue(),
    fc
      .record({
        key: fc.constantFrom(...keys, 'id', 'tenantId', '__proto__'),
        value: fc.jsonValue(),
      })
      .map(({ key, value }) => ({ ...valid, [key]: value })),
    fc.constantFrom(...keys).map((key) => {
      const copy = { ...valid };
      delete copy[key];
      return copy;
    }),
  );
}

async function snapshot(entity: string, token = tenant.token) {
  const response = await api(server, `/${entity}/page`, token, {
    method: 'POST',
    body: JSON.stringify({
      pageIndex: 1,
      pageSize: 100,
      listSort: { field: 'createdAt', direction: 0 },
    }),
  });
  return JSON.stringify((await response.json()).data);
}

describe.each(TENANT_ENTITIES)(
  'any body to %s/create and /update: 2xx or 4xx, never 5xx; a 4xx changes nothing',
  (entity) => {
    it('create', async () => {
      await fc.assert(
        fc.asyncProperty(bodies(validCreate[entity](tenant)), async (body) => {
          const before = await snapshot(entity);
          const response = await api(server, `/${entity}/create`, tenant.token, {
            method: 'POST',
            body: JSON.stringify(body),
          });
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect(await snapshot(entity)).toBe(before);
        }),
        { numRuns: RUNS },
      );
    });

    it('update', async () => {
      const valid = { ...validCreate[entity](tenant), id: tenant.ids[entity] };
      await fc.assert(
        fc.asyncProperty(bodies(valid), async (body) => {
          const before = await snapshot(entity);
          const response = await api(server, `/${entity}/update`, tenant.token, {
            method: 'PUT',
            body: JSON.stringify(body),
          });
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect(await snapshot(entity)).toBe(before);
        }),
        { numRuns: RUNS },
      );
    });
  },
);

describe('any body to tenants/create and /update (super administrator)', () => {
  const validTenant = () => ({
    name: `t${Date.now().toString(36)}`,
    domain: `x${Date.now().toString(36)}.example.test`,
  });

  it('create and update: 2xx or 4xx, never 5xx; a 4xx changes nothing', async () => {
    const created = await api(server, '/tenants/create', superToken, {
      method: 'POST',
      body: JSON.stringify(validTenant()),
    });
    const existing = (await created.json()).data as { id: string };
    await fc.assert(
      fc.asyncProperty(fc.boolean(), bodies(validTenant()), async (isUpdate, body) => {
        const before = await snapshot('tenants', superToken);
        const sent =
          isUpdate && body && typeof body === 'object' ? { id: existing.id, ...body } : body;
        const response = await api(
          server,
          `/tenants/${isUpdate ? 'update' : 'create'}`,
          superToken,
          {
            method: isUpdate ? 'PUT' : 'POST',
            body: JSON.stringify(sent),
          },
        );
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(await snapshot('tenants', superToken)).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });
});
