/**
 * Dashboard benchmark: GET /api/v1.0/dashboard of the built server (a separate
 * process) on PostgreSQL, for a tenant of 100,000 users and 10,000 projects (bench/dashboard-seed.ts).
 *
 *   npx tsx bench/dashboard.ts [--duration 10] [--connections 20] [--warmup 2]
 *                              [--users 100000] [--projects 10000] [--writes 10] [--no-build]
 *
 * Scenarios: "quiet" (nothing changes: the per-tenant cache answers) and "changing" (a project
 * is added `--writes` times a second during the run, so the dashboard is recomputed after each
 * change). Before them it times the uncomputed path (computeDashboard straight on the database)
 * and prints the EXPLAIN ANALYZE of every query. Results: stdout and bench/results/dashboard.json.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../apps/server/src/db/database';
import { computeDashboard } from '../apps/server/src/modules/dashboard/service';
import { ADMIN, seed, TENANT } from './dashboard-seed';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { freshDatabase } from './lib/database';
import { resultsDir } from './lib/paths';
import { passwordGrant, startServer } from './lib/server';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '20' },
    users: { type: 'string', default: '100000' },
    projects: { type: 'string', default: '10000' },
    'other-tenants': { type: 'string', default: '5' },
    writes: { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(resultsDir, 'dashboard.json') },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const TARGET_P99_MS = 100;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (value: number) => Math.round(value * 10) / 10;

/** The path without the cache: every query of computeDashboard, timed, then explained. */
async function timeUncached(pool: pg.Pool, tenantId: string, runs = 30) {
  const db = drizzle(pool, { casing: 'snake_case' }) as unknown as Database;
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await computeDashboard(db, tenantId);
    times.push(performance.now() - started);
  }
  times.sort((x, y) => x - y);
  const captured: Array<{ query: string; params: unknown[] }> = [];
  const logging = drizzle(pool, {
    casing: 'snake_case',
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Database;
  await computeDashboard(logging, tenantId);
  const plans = [];
  for (const { query, params } of captured) {
    const result = await pool.query(`explain (analyze, buffers) ${query}`, params);
    plans.push({ sql: query, plan: result.rows.map((row) => String(Object.values(row)[0])) });
  }
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), plans };
}

async function measure(url: string, token: string, name: string, writesPerSecond: number) {
  const headers = { authorization: `Bearer ${token}` };
  const check = await fetch(`${url}/api/v1.0/dashboard`, { headers });
  if (check.status !== 200) throw new Error(`${name}: ${check.status} ${await check.text()}`);
  const figures = ((await check.json()) as { data: { figures: Record<string, unknown> } }).data
    .figures;
  const options = { url: `${url}/api/v1.0/dashboard`, headers, connections: CONNECTIONS };
  if (Number(args.warmup) > 0) await autocannon({ ...options, duration: Number(args.warmup) });
  let writes = 0;
  let writing = writesPerSecond > 0;
  const writer = (async () => {
    while (writing) {
      const n = `${name}-${Date.now()}-${writes}`;
      const response = await fetch(`${url}/api/v1.0/projects/create`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bench ${n}`, projectNumber: n, budget: '100.00' }),
      });
      if (response.status === 201) writes += 1;
      await new Promise((resolve) => setTimeout(resolve, 1000 / writesPerSecond));
    }
  })();
  console.error(`  ${name}: ${DURATION} s, ${CONNECTIONS} connections`);
  const result = await autocannon({ ...options, duration: DURATION });
  writing = false;
  await writer;
  return {
    scenario: name,
    figures,
    writes,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
    latencyMaxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main() {
  if (!args['no-build']) buildServer();
  const cleanups = new Cleanups();
  try {
    const database = await freshDatabase('postgres', { prefix: 'bench_dashboard' });
    cleanups.add(database.drop);
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    cleanups.add(() => pool.end());
    const server = await startServer({ env: database.env, cleanups });
    const sizes = { users: Number(args.users), projects: Number(args.projects), signIns: 30_000 };
    const db = drizzle(pool, { casing: 'snake_case' }) as unknown as Database;
    const tenant = await seed(db, sizes, Number(args['other-tenants']));
    const uncached = await timeUncached(pool, tenant.tenantId);
    const token = (await passwordGrant(server.url, TENANT, ADMIN)).access_token;
    const runs = [
      await measure(server.url, token, 'quiet', 0),
      await measure(server.url, token, 'changing', Number(args.writes)),
    ];
    console.table(
      runs.map((run) => ({
        scenario: run.scenario,
        'req/s': run.requestsPerSecond,
        p50: run.latencyMs.p50,
        p90: run.latencyMs.p90,
        p99: run.latencyMs.p99,
        max: run.latencyMaxMs,
        writes: run.writes,
        non2xx: run.non2xx,
        errors: run.errors,
        [`p99 ≤ ${TARGET_P99_MS} ms`]: run.latencyMs.p99 <= TARGET_P99_MS && run.non2xx === 0,
      })),
    );
    console.log(`uncached computeDashboard: p50 ${uncached.p50} ms, p99 ${uncached.p99} ms`);
    console.log(`figures: ${JSON.stringify(runs[0]!.figures)}`);
    for (const { sql, plan } of uncached.plans) console.log(`\n${sql}\n${plan.join('\n')}`);
    const settings = {
      ...sizes,
      durationS: DURATION,
      connections: CONNECTIONS,
      writes: args.writes,
    };
    const machine = { cpus: os.availableParallelism(), node: process.version };
    const report = { date: new Date().toISOString(), machine, settings, uncached, runs };
    writeFileSync(args.out, JSON.stringify(report, null, 2) + '\n');
    console.error(`wrote ${args.out}`);
  } finally {
    await cleanups.run();
  }
}

await main();
