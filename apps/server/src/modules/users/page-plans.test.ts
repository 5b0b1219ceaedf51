import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '@tc/contract/paging';
import { USER_SORT_FIELDS, type UserPageRequest } from '@tc/contract/users';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { countedSort, readUserPage, SHALLOW_ROWS } from './page-queries';
import type { StatementRunner } from './page-sql';

/**
 * The plans of every statement a users page runs, on a tenant of 20,000 users (and another of
 * 1,000 beside it): each statement is built by the same functions as the route's and EXPLAIN
 * ANALYZEd on the same database just before it runs. No shape reads the users table from end
 * to end or sorts the tenant's users: pages are read along indexes, a deep page skips at most
 * one stretch of its sort (a bucket of user_sort_counts) or, near the start of an unfiltered
 * order, SHALLOW_ROWS users, and a search sorts at most the
 * COUNT_CAP + 1 matches it found, or only matches found through the trigram indexes.
 */
const USERS = 20_000;
const PAGE_SIZE = 10;

let server: TestServer;
let tenant: TenantFixture;
const roleIds: Record<string, string> = {};

const FIRST = [
  'Ada',
  'Anna',
  'Bruno',
  'Chloé',
  'Dmitri',
  'Elif',
  'Hannah',
  'Johann',
  'Kenji',
  'Lucía',
  'Maria',
  'Marco',
  'Noah',
  'Olga',
  'Priya',
  'Søren',
  'Tariq',
  'Wei',
  'Yara',
  'Zoë',
];
const LAST = [
  'Adler',
  'Berg',
  'Costa',
  'de Vries',
  'Fischer',
  'García',
  'Hansen',
  'Ito',
  'Jansen',
  'Kowalski',
  "O'Brien",
  'Marquez',
  'Nguyen',
  'Novak',
  'Petrov',
  'Schmidt',
  'Tanaka',
  'Weber',
  'Young',
  'Zimmer',
];
const list = (words: string[]) =>
  `array[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`;

/** n users of a tenant: names skewed towards the lists' starts, spread over three years. */
function usersSql(tenantId: string, n: number, roleIds: string[]) {
  const roles = `array[${roleIds.map((id) => `'${id}'::uuid`).join(',')}]`;
  const unit = (salt: number) =>
    `((hashint4(g * ${salt})::bigint + 2147483648)::float8 / 4294967296)`;
  return `insert into users (tenant_id, email, first_name, last_name, role_id, status, created_at)
    select '${tenantId}', lower(translate(f || '.' || l, ' ''', '')) || '.' || g || '@example.com', f, l,
      (${roles})[1 + floor(${unit(3)} * ${roleIds.length})::int],
      case when ${unit(7)} < 0.08 then 'inactive' else 'active' end,
      timestamptz '2023-01-01' + g * interval '53 minutes'
    from generate_series(1, ${n}) g,
      lateral (select (${list(FIRST)})[1 + floor(power(${unit(5)}, 1.2) * ${FIRST.length})::int] f,
                      (${list(LAST)})[1 + floor(power(${unit(11)}, 1.3) * ${LAST.length})::int] l) names`;
}

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  tenant = await createTenant(db);
  const other = await createTenant(db);
  roleIds.Member = tenant.memberRoleId;
  for (const name of ['Editor', 'Tiny'])
    roleIds[name] = await insertRole(db, { tenantId: tenant.tenantId, name, permissionIds: [] });
  // Of every 100 users: 87 members, 13 editors; three users get the tiny role after.
  const roles = [...Array(87).fill(roleIds.Member), ...Array(13).fill(roleIds.Editor)];
  await db.execute(sql.raw(usersSql(tenant.tenantId, USERS, roles)));
  await db.execute(
    sql.raw(`update users set role_id = '${roleIds.Tiny}' where id in (select id from users
      where tenant_id = '${tenant.tenantId}' and role_id = '${roleIds.Editor}' limit 3)`),
  );
  await db.execute(sql.raw(usersSql(other.tenantId, 2_000, [other.memberRoleId])));
  await db.execute(sql`vacuum analyze users`);
  await db.execute(sql`analyze user_sort_counts`);
}, 120_000);
afterAll(() => server?.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
const rowsOf = (node: PlanNode) =>
  (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];

/** The page, and the plan of each statement it ran, taken just before running it. */
async function explained(request: Partial<UserPageRequest>) {
  const db = server.database.db;
  const plans: PlanNode[][] = [];
  const run: StatementRunner = async (query) => {
    const { rows } = (await db.execute(
      sql`explain (analyze, format json) ${query}`,
    )) as unknown as {
      rows: Array<Record<string, unknown>>;
    };
    const json = rows[0]!['QUERY PLAN'];
    const [plan] = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: PlanNode }];
    plans.push(nodesOf(plan.Plan));
    return (await query) as never;
  };
  const full = { pageIndex: 1, pageSize: PAGE_SIZE, filter: {}, ...request } as UserPageRequest;
  const page = await readUserPage(db, tenant.tenantId, full, run);
  return { page, plans };
}

const isTrigram = (node: PlanNode) => /_trgm_idx$/.test(node['Index Name'] ?? '');

/**
 * No sequential scan of users; every index read of users at most `mostRead` entries (the
 * primary key's lookups of the page's rows aside); every sort of users given at most
 * COUNT_CAP + 1 rows, or only rows the trigram indexes found.
 */
function expectIndexBacked(plans: PlanNode[][], mostRead: number) {
  for (const nodes of plans) {
    const users = nodes.filter((node) => node['Relation Name'] === 'users');
    expect(users.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
    for (const node of users.filter((n) => n['Node Type'].startsWith('Index'))) {
      if (node['Index Name'] === 'users_pkey') continue;
      expect(rowsOf(node), node['Index Name']).toBeLessThanOrEqual(mostRead);
    }
    // Reads of users through the trigram indexes, or of the page's rows by id, only.
    const byId = (node: PlanNode) => node['Index Name'] === 'users_pkey';
    const onlyTrigram =
      users.every((node) => node['Node Type'] === 'Bitmap Heap Scan' || byId(node)) &&
      nodes
        .filter((node) => node['Node Type'] === 'Bitmap Index Scan')
        .every((node) => isTrigram(node) || byId(node));
    for (const sort of nodes.filter((node) => node['Node Type'].endsWith('Sort'))) {
      const input = (sort.Plans ?? []).filter((child) => child['Parent Relationship'] === 'Outer');
      const given = input.reduce((sum, child) => sum + rowsOf(child), 0);
      if (given > COUNT_CAP + 1) expect(onlyTrigram, `a sort of ${given} rows`).toBe(true);
    }
  }
}

/**
 * The largest bucket of a sort, all roles and statuses: a read of a page stays inside one
 * (one role's or status's part of it, for those sorts), so it never reads more of an index.
 */
async function largestBucket(sort: string) {
  const { rows } = (await server.database.db.execute(sql`select max(n)::int as n from (
      select sum(n) as n from user_sort_counts where tenant_id = ${tenant.tenantId}
      and sort = ${sort} group by bucket) s`)) as unknown as { rows: Array<{ n: number }> };
  return rows[0]!.n;
}

describe(`the users page's plans at ${USERS} users`, () => {
  const filters = {
    'no filter': {},
    'inactive users': { status: 'inactive' as const },
    'a role of 13 %': () => ({ roleId: roleIds.Editor }),
    'a role of 3 users': () => ({ roleId: roleIds.Tiny }),
    'active members': () => ({ roleId: roleIds.Member, status: 'active' as const }),
  };
  for (const field of USER_SORT_FIELDS) {
    it(`sorted by ${field}, both directions, every filter: first, shallow, middle and last pages read along indexes`, async () => {
      const mostRead = Math.max(await largestBucket(countedSort[field]), SHALLOW_ROWS) + PAGE_SIZE;
      // Without the buckets, the middle page would read half the tenant's users.
      expect(mostRead).toBeLessThan(USERS / 4);
      for (const [name, filterOf] of Object.entries(filters)) {
        const filter = typeof filterOf === 'function' ? filterOf() : filterOf;
        for (const direction of [0, 1] as const) {
          const listSort = { field, direction };
          const { page: first, plans } = await explained({ filter, listSort });
          expectIndexBacked(plans, mostRead);
          const last = Math.max(1, Math.ceil(first.totalCount / PAGE_SIZE));
          // The deepest page still read with an OFFSET, then the middle and the last.
          const shallowest = Math.min(SHALLOW_ROWS / PAGE_SIZE, last);
          for (const pageIndex of [shallowest, Math.ceil(last / 2), last]) {
            const deep = await explained({ filter, listSort, pageIndex });
            expect(deep.page.data.length, `${name}, page ${pageIndex}`).toBeGreaterThan(0);
            expectIndexBacked(deep.plans, mostRead);
          }
        }
      }
    });
  }
});

describe('the plans of searches', () => {
  // A search read along an index stops once COUNT_CAP + 1 users matched (or the page did).
  const mostRead = Math.max(USERS / 2, COUNT_CAP + 1 + PAGE_SIZE);
  const searches = {
    'a common start (2 letters)': 'ma',
    'a rare start (1 letter)': 'q',
    'a fragment every user has (the mail domain)': 'example',
    'a fragment of some names': 'ann',
    'a fragment no one has': 'xqz',
  };
  for (const [name, search] of Object.entries(searches)) {
    it(`${name}: every sort, both directions, first and deep pages, with and without filters`, async () => {
      for (const field of USER_SORT_FIELDS) {
        for (const direction of [0, 1] as const) {
          const listSort = { field, direction };
          for (const filter of [
            { search },
            { search, status: 'inactive' as const },
            { search, roleId: roleIds.Tiny },
          ]) {
            const { page, plans } = await explained({ filter, listSort });
            expectIndexBacked(plans, mostRead);
            if (page.totalCount <= PAGE_SIZE) continue;
            const pageIndex = Math.ceil(page.totalCount / PAGE_SIZE / 2);
            const deep = await explained({ filter, listSort, pageIndex });
            expect(deep.page.data).toHaveLength(PAGE_SIZE);
            expectIndexBacked(deep.plans, mostRead);
          }
        }
      }
    });
  }
});
