import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '@tc/contract/paging';
import {
  PROJECT_SORT_FIELDS,
  projectPageRequestSchema,
  type ProjectPageRequest,
} from '@tc/contract/projects';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  firstValue,
  listUnderTest,
  rawClient,
  readsOf,
  rowsOf,
  type RawClient,
} from '../../test/helpers/list-plans';
import { pageProjects } from './queries';

/**
 * The plans of the project list's statements, exactly as the list sends them, on a tenant of
 * 20,000 projects beside a smaller one: every sort in both directions, alone and with each
 * filter and search, at the first, a middle and the last page. No shape reads the table from
 * end to end or sorts the tenant's projects, and no page skips more index entries than its
 * offset (or, read from the far end, than the rows after it).
 */
const PROJECTS = 20_000;
const PAGE_SIZE = 10;
const FROM_THE_END_AFTER = 1_000;

let server: TestServer;
let client: RawClient;
let tenant: TenantFixture;
let bigOwner: string;
let smallOwner: string;

const value = <T>(text: string, params?: unknown[]) => firstValue<T>(client, text, params);

beforeAll(async () => {
  server = await startTestServer();
  client = rawClient(server);
  tenant = await createTenant(server.database.db);
  const other = await createTenant(server.database.db);
  for (const t of [tenant, other]) {
    await client.query(
      `insert into users (tenant_id, email, first_name, last_name, role_id)
       select $1, 'owner' || g || '@' || $2, 'First' || (g % 37), 'Last' || g, $3
       from generate_series(1, 300) g`,
      [t.tenantId, t.domain, t.memberRoleId],
    );
  }
  // Owner 1 of the tenant holds a third of its projects, the others few each; every 50th
  // project has no owner and every 13th no country.
  await client.query(
    `insert into projects (tenant_id, name, project_number, owner_id, budget, country, created_at)
     select $1, md5(g::text) || ' project ' || g, 'P-' || g,
       case when g % 50 = 0 then null when g % 3 = 0 then o.ids[1]
         else o.ids[2 + g % (array_length(o.ids, 1) - 1)] end,
       (hashint4(g) & 65535)::numeric / 7,
       case when g % 13 = 0 then null
         else (array['DE','CH','AT','FR','IT','US','GB','ES','NL','SE','PL','BR'])[1 + g % 12] end,
       timestamptz '2026-01-01' + (g / 3) * interval '1 minute'
     from generate_series(1, $2::int) g,
       (select array_agg(id order by email) ids from users where tenant_id = $1) o`,
    [tenant.tenantId, PROJECTS],
  );
  await client.query(
    `insert into projects (tenant_id, name, project_number, owner_id, country)
     select $1, md5(g::text) || ' project ' || g, 'P-' || g,
       (select id from users where tenant_id = $1 order by email limit 1), 'DE'
     from generate_series(1, 2000) g`,
    [other.tenantId],
  );
  await client.query('vacuum analyze');
  const owners = `select owner_id from projects where tenant_id = $1 and owner_id is not null
    group by owner_id order by count(*)`;
  bigOwner = await value(`${owners} desc limit 1`, [tenant.tenantId]);
  smallOwner = await value(`${owners} limit 1`, [tenant.tenantId]);
}, 120_000);
afterAll(() => server?.close());

const list = listUnderTest({
  page: pageProjects,
  parse: (body): ProjectPageRequest => projectPageRequestSchema.parse(body),
  sortFields: PROJECT_SORT_FIELDS,
  pageSize: PAGE_SIZE,
  // One past the middle: the first page read from the far end.
  middlePage: (last) => Math.ceil(last / 2) + 1,
  scope: () => ({ server, tenantId: tenant.tenantId }),
});

describe(`the project list's plans at ${PROJECTS} projects`, () => {
  const filters = (): Record<string, ProjectPageRequest['filter']> => ({
    none: {},
    'a big owner': { ownerId: bigOwner },
    'a small owner': { ownerId: smallOwner },
    'a country': { country: 'DE' },
    'owner and country': { ownerId: bigOwner, country: 'DE' },
  });

  for (const field of PROJECT_SORT_FIELDS) {
    it(`sorted by ${field}, both ways, with each filter: pages walk one index, nothing is sorted`, async () => {
      for (const [name, filter] of Object.entries(filters())) {
        await list.pagePlans(field, filter, async (statements, shape, { pageIndex, total }) => {
          const offset = (pageIndex - 1) * PAGE_SIZE;
          const reads = readsOf(statements, 'projects');
          expect(reads.seqScans, shape).toEqual([]);
          expect(reads.sorted, shape).toEqual([]);
          // Skipping to the page reads index entries, at most up to the page (or, from the
          // far end, up to the page from there); owner and country together read the owner's.
          const walked = Math.max(...reads.indexScans.map((scan) => scan.rows));
          const bound =
            name === 'owner and country'
              ? Number.POSITIVE_INFINITY
              : offset < FROM_THE_END_AFTER
                ? offset + PAGE_SIZE + 1
                : Math.min(offset, total - offset) + PAGE_SIZE + 1;
          expect(walked, shape).toBeLessThanOrEqual(bound);
          if (name === 'owner and country') {
            const owned = await value<number>(
              'select count(*)::int from projects where tenant_id = $1 and owner_id = $2',
              [tenant.tenantId, bigOwner],
            );
            expect(walked, shape).toBeLessThanOrEqual(owned + 1);
          }
        });
      }
    });
  }

  it('a page read from the far end is the same page as read from the start', async () => {
    const total = await list.totalOf({});
    for (const field of PROJECT_SORT_FIELDS) {
      for (const direction of [0, 1] as const) {
        const listSort = { field, direction };
        const pageIndex = Math.ceil(total / PAGE_SIZE) - 3;
        const page = await pageProjects({
          db: server.database.db,
          caller: { tenantId: tenant.tenantId },
          request: list.request({ pageIndex, pageSize: PAGE_SIZE, listSort }),
        } as never);
        const keys = {
          name: 'name, id',
          projectNumber: 'project_number, id',
          budget: 'budget, id',
          country: 'country, name, id',
          owner: 'owner_name, name, id',
          createdAt: 'created_at, id',
        }[field]
          .split(', ')
          .map((key) => `${key} ${direction ? 'desc' : 'asc'}`)
          .join(', ');
        const { rows } = await client.query(
          `select id from projects where tenant_id = $1 order by ${keys} limit $2 offset $3`,
          [tenant.tenantId, PAGE_SIZE, (pageIndex - 1) * PAGE_SIZE],
        );
        expect(page.data.map((row) => row.id)).toEqual(
          rows.map((row) => (row as { id: string }).id),
        );
      }
    }
  });

  const matching = (pattern: string) =>
    value<number>(`select count(*)::int from projects where tenant_id = $1 and search like $2`, [
      tenant.tenantId,
      pattern,
    ]);

  it('a few matches are found by the trigram index and only they are sorted', async () => {
    // Four characters of a name in the planner's statistics (a histogram bound), which it
    // guesses to match far more projects than the few that do; and two characters that
    // start a few names.
    const bound = await value<string>(
      `select (histogram_bounds::text::text[])[50] from pg_stats
       where tablename = 'projects' and attname = 'name'`,
    );
    const inside = bound.slice(3, 7);
    const start = bound.slice(0, 2);
    for (const [search, pattern] of [
      [inside, `%${inside}%`],
      [start, `${start}%`],
    ] as const) {
      const matches = await matching(pattern);
      expect(matches).toBeGreaterThan(0);
      expect(matches).toBeLessThan(PROJECTS / 100);
      for (const filter of [{ search }, { search, country: 'DE' }, { search, ownerId: bigOwner }]) {
        await list.firstPagePlans(filter, (statements, shape) => {
          const reads = readsOf(statements, 'projects');
          expect(reads.seqScans, shape).toEqual([]);
          expect(reads.bitmapIndexes, shape).toContain('projects_search_trgm_idx');
          for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(matches);
        });
      }
    }
  });

  it('a search most projects match walks the sort index, and its count stops at 10,001', async () => {
    // Every project's name has "project" in it, and every number starts with "P".
    for (const search of ['project', 'p']) {
      expect(await matching(search.length < 3 ? '%\np%' : `%${search}%`)).toBe(PROJECTS);
      await list.firstPagePlans({ search }, (statements, shape) => {
        expect(statements, shape).toHaveLength(1);
        const rows = readsOf(statements, 'projects', 'without init plans');
        expect(rows.seqScans, shape).toEqual([]);
        expect(rows.sorted, shape).toEqual([]);
        expect(Math.max(...rows.indexScans.map((scan) => scan.rows)), shape).toBe(PAGE_SIZE);
        // The total: however it reads, it stops at one match past the cap.
        const total = readsOf(statements, 'projects');
        expect(total.sorted, shape).toEqual([]);
        for (const scan of total.seqScans) expect(rowsOf(scan), shape).toBe(COUNT_CAP + 1);
        const limits = statements[0]!.nodes.filter(
          (node) => node.initPlan && node['Node Type'] === 'Limit',
        );
        expect(limits.map(rowsOf), shape).toEqual([COUNT_CAP + 1]);
      });
    }
  });

  it('a page past the last has no rows and still tells the total, counted on its own', async () => {
    for (const filter of [{ ownerId: bigOwner, country: 'DE' }, { search: 'p-1999' }]) {
      const { total, beyond } = await list.pastTheLastPage(filter);
      expect(total, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(beyond, JSON.stringify(filter)).toMatchObject({ data: [], totalCount: total });
    }
  });
});
