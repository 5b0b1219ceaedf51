import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_SORT_FIELDS, type TenantPageRequest } from '@tc/contract/tenants';
import { startTestServer, type TestServer } from '../../test/harness';
import { plansOf, rawClient, type PlanNode, type RawClient } from '../../test/helpers/list-plans';
import { pageTenants } from './queries';
import { identifyTenant } from './service';

/**
 * The plans of the tenant list's queries on 10,000 tenants, taken from the SQL that the list
 * itself sends (captured through Drizzle's logger) and EXPLAINed on the same database: no shape
 * reads the tenants table from end to end, nor sorts it.
 */
const TENANTS = 10_000;
const PAGE_SIZE = 10;

let server: TestServer;
let client: RawClient;

beforeAll(async () => {
  server = await startTestServer();
  client = rawClient(server);
  await client.query(
    `insert into tenants (name, domain, created_at)
     select 'plan-' || g || '-' || substr(md5(g::text), 1, 8),
            substr(md5(g::text), 1, 8) || '-' || g || '.plans.example.test',
            -- Creation times repeat in groups of five, so the id decides between equals.
            timestamptz '2026-01-01' + (g / 5) * interval '1 hour'
     from generate_series(1, ${TENANTS}) g`,
  );
  await client.query('vacuum analyze tenants');
}, 120_000);
afterAll(() => server?.close());

const page = (request: Partial<TenantPageRequest>) =>
  plansOf(server, (db) =>
    pageTenants({
      db,
      request: { pageIndex: 1, pageSize: PAGE_SIZE, filter: {}, ...request } as TenantPageRequest,
    } as never),
  );

/** What a statement reads of the tenants table, and whether it sorts. */
function tenantReads(nodes: PlanNode[]) {
  return {
    seqScans: nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
    sorts: nodes.filter((n) => n['Node Type'].endsWith('Sort')),
    indexScans: nodes.filter(
      (n) => n['Node Type'].startsWith('Index') && n['Relation Name'] === 'tenants',
    ),
  };
}

const lastPage = Math.ceil(TENANTS / PAGE_SIZE);

describe(`the tenant list's plans at ${TENANTS} tenants`, () => {
  for (const field of TENANT_SORT_FIELDS) {
    for (const direction of [0, 1] as const) {
      it(`sorted by ${field} ${direction ? 'desc' : 'asc'}: pages 1, ${lastPage / 2} and ${lastPage} walk an index; the total is read`, async () => {
        const listSort = { field, direction };
        for (const [pageIndex, mostRead] of [
          [1, PAGE_SIZE + 1],
          [lastPage / 2, TENANTS / 2 + PAGE_SIZE],
          [lastPage, PAGE_SIZE + 1],
        ] as const) {
          const statements = await page({ pageIndex, listSort });
          const count = statements.find((s) => s.query.includes('tenant_counts'));
          expect(count, 'the total comes from the kept count').toBeDefined();
          expect(count!.nodes.some((n) => n['Relation Name'] === 'tenants')).toBe(false);
          const [rows, ...others] = statements.filter((s) => s !== count);
          expect(others).toEqual([]);
          const reads = tenantReads(rows!.nodes);
          expect(reads.seqScans).toEqual([]);
          expect(reads.sorts).toEqual([]);
          expect(reads.indexScans).toHaveLength(1);
          expect(reads.indexScans[0]!['Index Name']).toMatch(/^tenants_list_/);
          // The last page is read from the far end: no page skips more than half the list.
          expect(reads.indexScans[0]!['Actual Rows']).toBeLessThanOrEqual(mostRead);
        }
      });
    }
  }

  it('a search of three characters or more reads the trigram indexes and sorts only its matches', async () => {
    // Four letters of the hash of a name in the planner's statistics (a histogram bound): it
    // guesses that one tenant in a hundred matches, far more than the few that do, and would
    // walk a sort index testing every tenant on the way if the list let it.
    const { rows } = await client.query(
      `select (histogram_bounds::text::text[])[50] as bound
       from pg_stats where tablename = 'tenants' and attname = 'name'`,
    );
    const search = (rows[0] as { bound: string }).bound.split('-')[2]!.slice(0, 4);
    const { rows: found } = await client.query(
      `select count(*)::int as n from tenants where name like $1 or domain like $1`,
      [`%${search}%`],
    );
    const matches = (found[0] as { n: number }).n;
    expect(matches).toBeGreaterThan(0);
    expect(matches).toBeLessThan(TENANTS / 100);
    for (const field of TENANT_SORT_FIELDS) {
      const statements = await page({
        filter: { search },
        listSort: { field, direction: 1 },
      });
      // One statement: the page's rows and the number of matches.
      expect(statements).toHaveLength(1);
      for (const { nodes } of statements) {
        const reads = tenantReads(nodes);
        expect(reads.seqScans).toEqual([]);
        const indexes = nodes.filter((n) => n['Node Type'] === 'Bitmap Index Scan');
        expect(indexes.map((n) => n['Index Name']).sort()).toEqual([
          'tenants_domain_trgm_idx',
          'tenants_name_trgm_idx',
        ]);
        for (const sort of reads.sorts) expect(sort['Actual Rows']).toBeLessThanOrEqual(matches);
      }
    }
  });

  it('identifying a tenant by host, by Tenant-ID or as the master realm is one indexed lookup', async () => {
    const { rows } = await client.query(
      `select id, domain from tenants where name like 'plan-777-%'`,
    );
    const tenant = rows[0] as { id: string; domain: string };
    const cases = [
      [{ hostname: tenant.domain.toUpperCase() }, 'tenants_domain_lower_key'],
      [{ hostname: 'any.example.test', tenantIdHeader: tenant.id }, 'tenants_pkey'],
      [{ hostname: 'console.example.test' }, 'tenants_master_key'],
    ] as const;
    for (const [input, index] of cases) {
      const statements = await plansOf(server, (db) =>
        identifyTenant(db, {
          tenantIdHeader: undefined,
          publicHost: 'console.example.test',
          googleClientId: undefined,
          ...input,
        }),
      );
      expect(statements).toHaveLength(1);
      const reads = tenantReads(statements[0]!.nodes);
      expect(reads.seqScans).toEqual([]);
      expect(reads.indexScans.map((n) => n['Index Name'])).toEqual([index]);
      expect(reads.indexScans[0]!['Actual Rows']).toBe(1);
    }
  });

  // Last: it adds a tenant.
  it('a search matching more than 10,000 tenants answers 10,000, flagged as an estimate', async () => {
    const search = async (text: string) =>
      pageTenants({
        db: server.database.db,
        request: {
          pageIndex: 1,
          pageSize: PAGE_SIZE,
          filter: { search: text },
          listSort: { field: 'name', direction: 0 },
        },
      } as never);
    // One or two characters (walked along the sort index, counted apart) and more (one statement).
    for (const text of ['PL', 'PLAN-']) {
      const exact = await search(text);
      expect(exact).toMatchObject({ totalCount: TENANTS });
      expect(exact.totalCountIsEstimate).toBeUndefined();
    }
    await client.query(
      `insert into tenants (name, domain) values ('plan-extra', 'extra.example.test')`,
    );
    for (const text of ['PL', 'PLAN-']) {
      const capped = await search(text);
      expect(capped).toMatchObject({ totalCount: TENANTS, totalCountIsEstimate: true });
      expect(capped.data).toHaveLength(PAGE_SIZE);
    }
    // A page past the last match still tells how many there are.
    const past = await search(`plan-${TENANTS}-`);
    expect(past.totalCount).toBe(1);
    const beyond = await pageTenants({
      db: server.database.db,
      request: {
        pageIndex: 3,
        pageSize: PAGE_SIZE,
        filter: { search: `plan-${TENANTS}-` },
        listSort: { field: 'name', direction: 0 },
      },
    } as never);
    expect(beyond).toMatchObject({ data: [], totalCount: 1 });
  });
});
