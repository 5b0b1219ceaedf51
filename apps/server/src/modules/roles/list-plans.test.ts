import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePageRequestSchema, type RolePageRequest } from '@tc/contract/roles';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  addNeighbourTenants,
  firstValue,
  listUnderTest,
  rawClient,
  readsOf,
  type RawClient,
} from '../../test/helpers/list-plans';
import { pageRoles } from './queries';

/**
 * The plans of the role list's statements, exactly as the list sends them, on a tenant of
 * 3,000 roles (a tenant has tens, but the list must not depend on it) among 100 tenants of
 * 250: every sort in both
 * directions, alone and with the status filter, at the first, a middle and the last page,
 * and searches. No shape reads the table from end to end or sorts the tenant's roles.
 */
const ROLES = 3_000;
const PAGE_SIZE = 10;
const SORT_FIELDS = ['name', 'status', 'createdAt'] as const;

let server: TestServer;
let client: RawClient;
let tenant: TenantFixture;

const value = <T>(text: string, params?: unknown[]) => firstValue<T>(client, text, params);

beforeAll(async () => {
  server = await startTestServer();
  client = rawClient(server);
  tenant = await createTenant(server.database.db);
  // Beside it, 100 tenants of 250 roles each: the tenant's own rows are one in ten.
  await addNeighbourTenants(client, tenant.name);
  await client.query(
    `insert into roles (tenant_id, name, status, created_at)
     select t.id, md5(t.id::text || g) || ' role ' || g,
       case when g % 5 = 0 then 'inactive' else 'active' end,
       timestamptz '2026-01-01' + g * interval '1 minute'
     from tenants t, generate_series(1, 250) g where t.name like 'plans-%'`,
  );
  await client.query(
    `insert into roles (tenant_id, name, status, created_at)
     select $1, md5(g::text) || ' role ' || g, case when g % 5 = 0 then 'inactive' else 'active' end,
       timestamptz '2026-01-01' + (g / 3) * interval '1 minute'
     from generate_series(1, $2::int) g`,
    [tenant.tenantId, ROLES],
  );
  await client.query('vacuum analyze');
}, 120_000);
afterAll(() => server?.close());

const list = listUnderTest({
  page: pageRoles,
  parse: (body): RolePageRequest => rolePageRequestSchema.parse(body),
  sortFields: SORT_FIELDS,
  pageSize: PAGE_SIZE,
  scope: () => ({ server, tenantId: tenant.tenantId }),
});

describe(`the role list's plans at ${ROLES} roles`, () => {
  for (const field of SORT_FIELDS) {
    it(`sorted by ${field}, both ways, with each status: pages walk one index, nothing is sorted`, async () => {
      for (const filter of [{}, { status: 'active' }, { status: 'inactive' }] as const) {
        await list.pagePlans(field, filter, (statements, shape) => {
          const reads = readsOf(statements, 'roles');
          expect(reads.seqScans, shape).toEqual([]);
          expect(reads.sorted, shape).toEqual([]);
        });
      }
    });
  }

  it('a search matching few roles finds them by the trigram index and sorts only them', async () => {
    // Four characters inside one of the tenant's names, and two that start it.
    const bound = await value<string>(
      'select name from roles where tenant_id = $1 order by name offset 100 limit 1',
      [tenant.tenantId],
    );
    for (const [search, pattern] of [
      [bound.slice(3, 7), `%${bound.slice(3, 7)}%`],
      [bound.slice(0, 2), `${bound.slice(0, 2)}%`],
    ] as const) {
      const matches = await value<number>(
        'select count(*)::int from roles where tenant_id = $1 and name ilike $2',
        [tenant.tenantId, pattern],
      );
      expect(matches).toBeGreaterThan(0);
      expect(matches).toBeLessThan(ROLES / 50);
      await list.firstPagePlans({ search }, (statements, shape) => {
        const reads = readsOf(statements, 'roles');
        expect(reads.seqScans, shape).toEqual([]);
        expect(reads.bitmapIndexes, shape).toContain('roles_name_trgm_idx');
        for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(matches);
      });
    }
  });

  it('a search most roles match walks the sort index', async () => {
    await list.firstPagePlans({ search: 'role' }, (statements, shape) => {
      const rows = readsOf(statements, 'roles', 'without init plans');
      expect(rows.seqScans, shape).toEqual([]);
      expect(rows.sorted, shape).toEqual([]);
    });
  });

  it('a page past the last has no rows and still tells the total, counted on its own', async () => {
    for (const filter of [{}, { status: 'inactive' }, { search: 'role' }] as const) {
      const { total, beyond } = await list.pastTheLastPage(filter);
      expect(total, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(beyond, JSON.stringify(filter)).toMatchObject({ data: [], totalCount: total });
    }
  });
});
