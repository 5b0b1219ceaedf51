import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import type { Database } from '../../db/database';
import type { TestServer } from '../harness';

/** The raw client of the test's database (a pg pool or PGlite), for seeding and EXPLAIN. */
export interface RawClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export const rawClient = (server: TestServer) =>
  (server.database.db as unknown as { $client: RawClient }).$client;

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
  /** Set on the nodes of an InitPlan (a subquery run once, such as a total) and below. */
  initPlan?: boolean;
}

export interface Statement {
  query: string;
  params: unknown[];
  /** Every node of the statement's EXPLAIN ANALYZE plan, root first. */
  nodes: PlanNode[];
}

function nodesOf(node: PlanNode, initPlan = false): PlanNode[] {
  const inInitPlan = initPlan || node['Parent Relationship'] === 'InitPlan';
  return [
    { ...node, initPlan: inInitPlan },
    ...(node.Plans ?? []).flatMap((child) => nodesOf(child, inInitPlan)),
  ];
}

/** A Drizzle instance on the test's database that tells each statement it sends. */
function capturing(server: TestServer, log: (query: string, params: unknown[]) => void) {
  const options = { casing: 'snake_case' as const, logger: { logQuery: log } };
  const raw = (server.database.db as unknown as { $client: unknown }).$client;
  return (server.database.engine === 'postgres'
    ? drizzlePg(raw as pg.Pool, options)
    : drizzlePglite(raw as PGlite, options)) as unknown as Database;
}

/**
 * Every statement `run` sends, exactly as it sends it, with its EXPLAIN ANALYZE plan on the
 * same database.
 */
export async function plansOf(
  server: TestServer,
  run: (db: Database) => Promise<unknown>,
): Promise<Statement[]> {
  const captured: Array<{ query: string; params: unknown[] }> = [];
  await run(capturing(server, (query, params) => captured.push({ query, params })));
  const client = rawClient(server);
  const statements: Statement[] = [];
  for (const { query, params } of captured) {
    const { rows } = await client.query(`explain (analyze, format json) ${query}`, params);
    const json = (rows[0] as Record<string, unknown>)['QUERY PLAN'];
    const [plan] = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: PlanNode }];
    statements.push({ query, params, nodes: nodesOf(plan.Plan) });
  }
  return statements;
}

/** The rows a node hands up over all its loops. */
export const rowsOf = (node: PlanNode) => node['Actual Rows'] * node['Actual Loops'];

/**
 * What the statements do with `table`: its sequential scans, the index entries each index
 * scan of it reads, and, for every sort of its rows, how many rows it was given.
 */
export function readsOf(
  statements: Statement[],
  table: string,
  which: 'all' | 'without init plans' = 'all',
) {
  const nodes = statements
    .flatMap((statement) => statement.nodes)
    .filter((node) => which === 'all' || !node.initPlan);
  const ofTable = nodes.filter((node) => node['Relation Name'] === table);
  return {
    seqScans: ofTable.filter((node) => node['Node Type'] === 'Seq Scan'),
    indexScans: ofTable
      .filter((node) => node['Node Type'].startsWith('Index'))
      .map((node) => ({ index: node['Index Name']!, rows: rowsOf(node) })),
    bitmapIndexes: nodes
      .filter((node) => node['Node Type'] === 'Bitmap Index Scan')
      .map((node) => node['Index Name']!),
    // A sort below a row's own subquery (a project's people, say) reads other tables.
    sorted: nodes
      .filter((node) => node['Node Type'].endsWith('Sort'))
      .filter((node) => nodesOf(node).some((below) => below['Relation Name'] === table))
      .map((node) => (node.Plans ?? []).reduce((sum, child) => sum + rowsOf(child), 0)),
  };
}

/** The first column of the first row a statement answers. */
export async function firstValue<T>(
  client: RawClient,
  text: string,
  params: unknown[] = [],
): Promise<T> {
  const { rows } = await client.query(text, params);
  return Object.values(rows[0] as Record<string, T>)[0]!;
}

/**
 * `count` tenants (`plans-<n>-<name>`) beside the tenant named `name`, to be given rows of
 * their own so that the tenant's rows are only part of the table.
 */
export async function addNeighbourTenants(client: RawClient, name: string, count = 100) {
  await client.query(
    `insert into tenants (name, domain) select 'plans-' || g || '-' || $1, null
     from generate_series(1, $2::int) g`,
    [name, count],
  );
}

/** A list's page function, called as its route calls it: with a database, caller and request. */
type PageFunction = (context: never) => Promise<{ data: unknown[]; totalCount: number }>;

/** A statement check, told which shape it looks at (for the failure message). */
type PlanCheck<Extra = object> = (
  statements: Statement[],
  shape: string,
  extra: Extra,
) => void | Promise<void>;

/**
 * One list of one tenant, as its plans are tested: `request` parses a body as the route does,
 * `plans` EXPLAINs every statement a page sends, `totalOf` is the total a filter answers,
 * `pagePlans` checks the first, a middle and the last page of a filter in one sort both ways,
 * `firstPagePlans` the first page of a filter (a search, say) in every sort both ways, and
 * `pastTheLastPage` what a page past the last answers.
 * `middlePage` picks the middle page of `last` pages. `scope` is read when they run, as the
 * server and tenant are made in `beforeAll`.
 */
export function listUnderTest<Request extends { filter: object }>(list: {
  page: PageFunction;
  parse: (body: object) => Request;
  sortFields: readonly string[];
  pageSize: number;
  middlePage?: (last: number) => number;
  scope: () => { server: TestServer; tenantId: string };
}) {
  const middlePage = list.middlePage ?? ((last: number) => Math.ceil(last / 2));
  const run = (db: Database, request: Request) =>
    list.page({ db, caller: { tenantId: list.scope().tenantId }, request } as never);
  const plans = (request: Request) => plansOf(list.scope().server, (db) => run(db, request));
  const totalOf = async (filter: Request['filter']) => {
    const page = await run(list.scope().server.database.db, list.parse({ pageSize: 1, filter }));
    return page.totalCount;
  };
  const label = (filter: object, field: string, direction: 0 | 1) =>
    `${JSON.stringify(filter)}, ${field} ${direction ? 'desc' : 'asc'}`;
  return {
    request: list.parse,
    plans,
    totalOf,
    async pagePlans(
      field: string,
      filter: Request['filter'],
      check: PlanCheck<{ pageIndex: number; total: number }>,
    ) {
      const total = await totalOf(filter);
      const last = Math.max(1, Math.ceil(total / list.pageSize));
      for (const direction of [0, 1] as const) {
        for (const pageIndex of new Set([1, middlePage(last), last])) {
          const shape = `${label(filter, field, direction)}, page ${pageIndex}`;
          const listSort = { field, direction };
          const body = { pageIndex, pageSize: list.pageSize, filter, listSort };
          await check(await plans(list.parse(body)), shape, { pageIndex, total });
        }
      }
    },
    /** The filter's total, and the answer to a page two past its last. */
    async pastTheLastPage(filter: Request['filter']) {
      const total = await totalOf(filter);
      const pageIndex = Math.ceil(total / list.pageSize) + 2;
      const body = { pageIndex, pageSize: list.pageSize, filter };
      return { total, beyond: await run(list.scope().server.database.db, list.parse(body)) };
    },
    async firstPagePlans(filter: Request['filter'], check: PlanCheck) {
      for (const field of list.sortFields) {
        for (const direction of [0, 1] as const) {
          const body = { pageSize: list.pageSize, filter, listSort: { field, direction } };
          await check(await plans(list.parse(body)), label(filter, field, direction), {});
        }
      }
    },
  };
}
