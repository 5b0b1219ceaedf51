import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../fixtures';
import { startTestServer, type TestServer } from '../harness';
import { seedTenant, TENANT_ENTITIES, validCreate, type SeededTenant } from './entities';

let server: TestServer;
let tenant: SeededTenant;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await seedTenant(server);
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

async function snapshot(entity: string) {
  const response = await api(server, `/${entity}/page`, tenant.token, {
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
