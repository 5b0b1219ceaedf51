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
