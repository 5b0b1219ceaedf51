/**
 * User list benchmark: POST /api/v1.0/users/page of the built server (a separate process) on a
 * tenant of 100,000 users (plus ten tenants of 1,000), on PostgreSQL and on PGlite:
 * page 1 and page 5,000 sorted by e-mail, and a search on an e-mail fragment.
 *
 *   npx tsx bench/list.ts [--engines postgres,pglite] [--duration 10] [--connections 50]
 *                         [--warmup 2] [--users 100000] [--no-build]
 *
 * Results: a table on stdout and bench/results/list.json. See bench/README.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { freshDatabase, parseEngines, type Engine } from './lib/database';
import { passwordGrant, startServer } from './lib/server';
import { measure, type RunningServer, type RunResult } from './list/measure';
import { explainAll, selected } from './list/scenarios';
import { seed } from './list/seed';
import {
  ADMIN,
  args,
  CONNECTIONS,
  DURATION,
  OTHER_TENANTS,
  OTHER_USERS,
  resultsFile,
  TARGETS,
  TENANT,
  USERS,
  WARMUP,
} from './list/settings';

/** The built server on the seeded database, with a CPU profile if --cpu-prof asks for one. */
async function startListServer(
  env: Record<string, string>,
  cleanups: Cleanups,
  databaseName?: string,
): Promise<RunningServer> {
  const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  return { ...(await startServer({ env, nodeArgs, cleanups })), databaseName };
}

const signIn = async (url: string) => (await passwordGrant(url, TENANT, ADMIN)).access_token;

const firstColumn = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) => String(Object.values(row)[0]));

async function runEngine(engine: Engine) {
  console.error(`[${engine}]`);
  const cleanups = new Cleanups();
  let plans: Awaited<ReturnType<typeof explainAll>> = {};
  const runs: RunResult[] = [];
  let seeded: Awaited<ReturnType<typeof seed>>;
  try {
    const database = await freshDatabase(engine, { prefix: 'bench_list' });
    cleanups.add(database.drop);
    let server: RunningServer;
    if (database.url !== undefined) {
      // PostgreSQL: the server migrates the database, then it is seeded beside it.
      server = await startListServer(database.env, cleanups, database.name);
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      cleanups.add(() => pool.end());
      const db = drizzle(pool, { casing: 'snake_case' }) as unknown as Database;
      seeded = await seed(db);
      plans = await explainAll(
        async (query, params) => firstColumn((await pool.query(query, params)).rows),
        (log) =>
          drizzle(pool, { casing: 'snake_case', logger: { logQuery: log } }) as unknown as Database,
        seeded.tenantId,
        seeded.search,
      );
    } else {
      // PGlite: one process at a time on a folder, so it is seeded before the server starts.
      const handle = await openDatabase({ databaseUrl: undefined, dataDir: database.dataDir! });
      try {
        await handle.migrate();
        seeded = await seed(handle.db);
        const client = (
          handle.db as unknown as {
            $client: {
              query: (q: string, p: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>;
            };
          }
        ).$client;
        const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
        plans = await explainAll(
          async (query, params) => firstColumn((await client.query(query, params)).rows),
          (log) =>
            drizzlePglite(client as never, {
              casing: 'snake_case',
              logger: { logQuery: log },
            }) as unknown as Database,
          seeded.tenantId,
          seeded.search,
        );
      } finally {
        await handle.close();
      }
      server = await startListServer(database.env, cleanups);
    }
    const token = await signIn(server.url);
    for (const scenario of selected(seeded.search)) {
      runs.push(await measure(server, token, scenario));
    }
  } finally {
    await cleanups.run();
  }
  return { engine, search: seeded.search, searchMatches: seeded.searchMatches, runs, plans };
}

function verdicts(engine: string, runs: RunResult[]) {
  const by = (name: string) => runs.find((r) => r.scenario === name);
  const p1 = by('page 1');
  const deep = by('page 5000');
  const search = by('search');
  const clean = (r?: RunResult) => !!r && r.non2xx === 0 && r.errors === 0;
  return {
    engine,
    page1:
      !!p1 &&
      clean(p1) &&
      p1.requestsPerSecond >= TARGETS.page1Rps &&
      p1.latencyMs.p99 <= TARGETS.page1P99,
    page5000: !!deep && clean(deep) && deep.latencyMs.p99 <= TARGETS.deepP99,
    search: !!search && clean(search) && search.latencyMs.p99 <= TARGETS.searchP99,
  };
}

async function main() {
  if (!args['no-build']) buildServer();
  const engines = parseEngines(args.engines);
  const results = [];
  for (const engine of engines) results.push(await runEngine(engine));

  const rows = results.flatMap((r) =>
    r.runs.map((run) => ({
      engine: r.engine,
      scenario: run.scenario,
      'req/s': run.requestsPerSecond,
      p50: run.latencyMs.p50,
      p90: run.latencyMs.p90,
      p99: run.latencyMs.p99,
      non2xx: run.non2xx,
      errors: run.errors,
      totalCount: run.firstResponse.totalCount,
      'server %': run.cpuPctOfOneCore.server,
      'pg %': run.cpuPctOfOneCore.postgres,
      'busy %': run.cpuPctOfOneCore.machineBusy,
      'srv ms/req': run.cpuMsPerRequest.server,
      'pg ms/req': run.cpuMsPerRequest.postgres,
      load1: run.loadAverageBefore[0],
    })),
  );
  console.table(rows);
  const targets = results.map((r) => verdicts(r.engine, r.runs));
  console.table(targets);
  for (const r of results) {
    for (const [name, queries] of Object.entries(r.plans)) {
      console.log(`\n--- ${r.engine} ${name}`);
      for (const q of queries) console.log(`${q.sql}\n${q.plan.join('\n')}\n`);
    }
  }
  writeFileSync(
    resultsFile,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { cpus: os.availableParallelism(), node: process.version },
        settings: {
          durationS: DURATION,
          warmupS: WARMUP,
          connections: CONNECTIONS,
          users: USERS,
          otherTenants: OTHER_TENANTS,
          otherUsers: OTHER_USERS,
        },
        targets: TARGETS,
        verdicts: targets,
        results,
      },
      null,
      2,
    ) + '\n',
  );
  console.error(`wrote ${resultsFile}`);
}

await main();
