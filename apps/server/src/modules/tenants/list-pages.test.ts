import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_SORT_FIELDS } from '@tc/contract/tenants';
import { nearerEndSlice } from '../../http/paging';
import { startTestServer, type TestServer } from '../../test/harness';
import { createTenantViaApi, sendJson, superAdminToken } from '../../test/helpers/tenants';

/**
 * The tenant list's pages as the super administrator reads them, against the same order and
 * count taken straight from the table: pages past the middle are read from the far end and
 * the total comes from the trigger-kept count, and neither may show.
 */
let server: TestServer;
let token: string;
let client: { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

const PAGE_SIZE = 10;
const ORDER = {
  name: 'lower(name) {dir}, id {dir}',
  domain: 'domain {dir}, id {dir}',
  createdAt: 'created_at {dir}, id {dir}',
};

beforeAll(async () => {
  server = await startTestServer();
  token = await superAdminToken(server);
  client = (server.database.db as unknown as { $client: typeof client }).$client;
  // 23 tenants, creation times in groups of four, so the id decides between equals.
  await client.query(
    `insert into tenants (name, domain, created_at)
     select 'pages-' || g || '-' || substr(md5(g::text), 1, 6),
            substr(md5(g::text), 1, 6) || '-' || g || '.pages.example.test',
            timestamptz '2026-03-01' + (g / 4) * interval '1 day'
     from generate_series(1, 23) g`,
  );
});
afterAll(() => server?.close());

async function listed(body: Record<string, unknown>) {
  const response = await sendJson(server, token, 'POST', '/tenants/page', body);
  expect(response.status).toBe(200);
  return (await response.json()).data as { data: Array<{ id: string }>; totalCount: number };
}

async function expected(order: string, where = 'true', params: unknown[] = []) {
  const { rows } = await client.query(
    `select id from tenants where not is_master and ${where} order by ${order}`,
    params,
  );
  return (rows as Array<{ id: string }>).map((row) => row.id);
}

/** Every page of a request, one after the other, until one comes back empty. */
async function allPages(body: Record<string, unknown>) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let pageIndex = 1; ; pageIndex += 1) {
    const page = await listed({ ...body, pageIndex, pageSize: PAGE_SIZE });
    totals.add(page.totalCount);
    if (page.data.length === 0) break;
    ids.push(...page.data.map((row) => row.id));
  }
  return { ids, totals: [...totals] };
}

describe('tenant list pages', () => {
  for (const field of TENANT_SORT_FIELDS) {
    for (const direction of [0, 1] as const) {
      it(`sorted by ${field} ${direction ? 'desc' : 'asc'}, every page is the table's slice`, async () => {
        const order = ORDER[field].replaceAll('{dir}', direction ? 'desc' : 'asc');
        const want = await expected(order);
        const got = await allPages({ listSort: { field, direction } });
        expect(got.ids).toEqual(want);
        expect(got.totals).toEqual([want.length]);
      });
    }
  }

  it('searches of any length find what a scan of the table finds, in order', async () => {
    const { rows } = await client.query(`select substr(md5('7'), 2, 4) as fragment`);
    const long = (rows[0] as { fragment: string }).fragment;
    for (const search of [long, long.slice(0, 2), 'PAGES-1', '.pages.']) {
      const want = await expected(
        'lower(name) desc, id desc',
        '(name ilike $1 or domain ilike $1)',
        [`%${search}%`],
      );
      expect(want.length).toBeGreaterThan(0);
      const got = await allPages({ filter: { search }, listSort: { field: 'name', direction: 1 } });
      expect(got.ids).toEqual(want);
      expect(got.totals).toEqual([want.length]);
    }
  });

  it('keeps the total through creations, deletions and inserts made with SQL', async () => {
    const count = async () => {
      const { rows } = await client.query(
        'select count(*)::int as n from tenants where not is_master',
      );
      return (rows[0] as { n: number }).n;
    };
    const total = async () => (await listed({ pageSize: 1 })).totalCount;
    expect(await total()).toBe(await count());
    const created = await createTenantViaApi(server, token);
    expect(await total()).toBe(await count());
    await client.query(
      `insert into tenants (name, domain)
       select 'bulk-' || g, 'bulk-' || g || '.example.test' from generate_series(1, 7) g`,
    );
    expect(await total()).toBe(await count());
    const deleted = await sendJson(server, token, 'DELETE', `/tenants/delete/${created.id}`);
    expect(deleted.status).toBe(200);
    await client.query(`delete from tenants where name like 'bulk-%'`);
    expect(await total()).toBe(await count());
  });
});

describe('nearerEndSlice', () => {
  it('reads a page past the middle from the end, and nothing past the last row', () => {
    expect(nearerEndSlice(0, 10, 25)).toEqual({ limit: 10, offset: 0, reversed: false });
    expect(nearerEndSlice(10, 10, 35)).toEqual({ limit: 10, offset: 10, reversed: false });
    // Rows 10–19 of 25: read as rows 5–14 of the reversed order.
    expect(nearerEndSlice(10, 10, 25)).toEqual({ limit: 10, offset: 5, reversed: true });
    // The last, short page: rows 20–24, the first five of the reversed order.
    expect(nearerEndSlice(20, 10, 25)).toEqual({ limit: 5, offset: 0, reversed: true });
    expect(nearerEndSlice(30, 10, 25)).toEqual({ limit: 0, offset: 30, reversed: false });
  });
});
