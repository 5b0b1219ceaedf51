import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_SORT_FIELDS,
  clientPageRequestSchema,
  type ClientPageRequest,
} from '@tc/contract/clients';
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
import { pageClients } from './queries';

/**
 * The plans of the application list's statements, exactly as the list sends them, on a tenant
 * of 3,000 applications (a tenant has a handful) among 100 tenants of 250: every sort in both
 * directions, alone and with the type filter, at the first, a middle and the last page, and
 * searches. No shape reads the table from end to end or sorts the tenant's applications.
 */
const CLIENTS = 3_000;
const PAGE_SIZE = 10;

let server: TestServer;
let client: RawClient;
let tenant: TenantFixture;

const value = <T>(text: string, params?: unknown[]) => firstValue<T>(client, text, params);

beforeAll(async () => {
  server = await startTestServer();
  client = rawClient(server);
  tenant = await createTenant(server.database.db);
  await addNeighbourTenants(client, tenant.name);
  const insert = `insert into clients (tenant_id, client_id, name, type, grant_types, created_at)
    select t.id, 'app-' || md5(t.id::text || g), md5(t.id::text || g || 'n') || ' app',
      case when g % 3 = 0 then 'public' else 'confidential' end, array['authorization_code'],
      timestamptz '2026-01-01' + g * interval '1 minute'`;
  await client.query(
    `${insert} from tenants t, generate_series(1, 250) g where t.name like 'plans-%'`,
  );
  await client.query(`${insert} from tenants t, generate_series(1, $2::int) g where t.id = $1`, [
    tenant.tenantId,
    CLIENTS,
  ]);
  await client.query('vacuum analyze');
}, 120_000);
afterAll(() => server?.close());

const list = listUnderTest({
  page: pageClients,
  parse: (body): ClientPageRequest => clientPageRequestSchema.parse(body),
  sortFields: CLIENT_SORT_FIELDS,
  pageSize: PAGE_SIZE,
  scope: () => ({ server, tenantId: tenant.tenantId }),
});

describe(`the application list's plans at ${CLIENTS} applications`, () => {
  for (const field of CLIENT_SORT_FIELDS) {
    it(`sorted by ${field}, both ways, with each type: pages walk one index, nothing is sorted`, async () => {
      for (const filter of [{}, { type: 'public' }, { type: 'confidential' }] as const) {
        await list.pagePlans(field, filter, (statements, shape) => {
          const reads = readsOf(statements, 'clients');
          expect(reads.seqScans, shape).toEqual([]);
          expect(reads.sorted, shape).toEqual([]);
        });
      }
    });
  }

  it('a search matching few applications finds them by the trigram indexes and sorts only them', async () => {
    // Four characters inside one of the tenant's names, and two that start a client ID.
    const name = await value<string>(
      'select name from clients where tenant_id = $1 order by name offset 100 limit 1',
      [tenant.tenantId],
    );
    for (const [search, where] of [
      [
        name.slice(3, 7),
        `name ilike '%${name.slice(3, 7)}%' or client_id ilike '%${name.slice(3, 7)}%'`,
      ],
      ['ap', `name ilike 'ap%' or client_id ilike 'ap%'`],
    ] as const) {
      const matches = await value<number>(
        `select count(*)::int from clients where tenant_id = $1 and (${where})`,
        [tenant.tenantId],
      );
      expect(matches).toBeGreaterThan(0);
      await list.firstPagePlans({ search }, (statements, shape) => {
        const reads = readsOf(statements, 'clients');
        expect(reads.seqScans, shape).toEqual([]);
        for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(matches);
        if (matches < CLIENTS / 50) {
          expect(reads.bitmapIndexes, shape).toContain('clients_name_trgm_idx');
        } else {
          // Every client ID starts with "app-": the page walks the sort index.
          const rows = readsOf(statements, 'clients', 'without init plans');
          expect(rows.sorted, shape).toEqual([]);
        }
      });
    }
  });

  it('a page past the last has no rows and still tells the total, counted on its own', async () => {
    for (const filter of [{}, { type: 'public' }, { search: 'app' }] as const) {
      const { total, beyond } = await list.pastTheLastPage(filter);
      expect(total, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(beyond, JSON.stringify(filter)).toMatchObject({ data: [], totalCount: total });
    }
  });
});
