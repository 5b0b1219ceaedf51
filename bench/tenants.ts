/**
 * Tenants benchmark, on PostgreSQL: the super administrator's tenant list at a small and a
 * large size in one run, then tenant creation through the API.
 *
 *   npx tsx bench/tenants.ts [--small 10] [--large 10000] [--duration 2] [--rounds 3]
 *                            [--warmup 1] [--connections 4] [--creations 600]
 *                            [--create-connections 8] [--only "name asc,search"] [--no-build]
 *
 * Two built servers (own processes, own fresh databases) start with SMALL tenants written with
 * SQL, and every list shape (page 1 and the last page of each sort column in both directions, a
 * search) is measured on both by turns. Then one of them, the grown one, grows to LARGE tenants
 * (SQL, VACUUM ANALYZE) and the shapes are measured again by turns: the grown server at LARGE
 * against the reference still at SMALL, in the same minutes, so that the machine's other load
 * weighs on both sizes alike. Every request is a different one (shapes.ts, `uncached`). The
 * plans of the list's queries and of the tenant-by-host lookup at LARGE are printed; last,
 * tenants are created through `POST /tenants/create`, with and without an invited administrator.
 * Results: tables on stdout and bench/results/tenants.json. See bench/README.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Database } from '../apps/server/src/db/database';
import { identifyTenant } from '../apps/server/src/modules/tenants/service';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { table } from './lib/table';
import { measureCreation, measureShapes } from './tenants/measure';
import { creationTable, figures, GROWN, listTable, REFERENCE } from './tenants/report';
import {
  args,
  CONNECTIONS,
  CREATE_CONNECTIONS,
  CREATIONS,
  DURATION,
  LARGE,
  resultsFile,
  ROUNDS,
  SMALL,
  TARGETS,
  WARMUP,
} from './tenants/settings';
import { explainShapes, shapes } from './tenants/shapes';
import { grow, startSide, type Side } from './tenants/side';

type LogQuery = (query: string, params: unknown[]) => void;

const selected = shapes(SMALL).filter(
  (shape) => !args.only || args.only.split(',').includes(shape.name),
);

const firstColumn = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) => String(Object.values(row)[0]));

/** The SQL the list and the tenant-by-host lookup send on the grown side, EXPLAINed there. */
async function explainAll(side: Side) {
  const makeDb = (log: LogQuery) =>
    drizzle(side.pool, { casing: 'snake_case', logger: { logQuery: log } }) as unknown as Database;
  const run = async (query: string, params: unknown[]) =>
    firstColumn((await side.pool.query(query, params)).rows);
  const plans = await explainShapes(run, makeDb, selected, side.total);
  const { rows } = await side.pool.query<{ domain: string }>(
    'select domain from tenants where not is_master order by created_at limit 1 offset $1',
    [Math.floor(side.total / 2)],
  );
  const captured: Array<{ query: string; params: unknown[] }> = [];
  await identifyTenant(
    makeDb((query, params) => captured.push({ query, params })),
    {
      tenantIdHeader: undefined,
      hostname: rows[0]!.domain,
      publicHost: 'console.example.test',
      googleClientId: undefined,
    },
  );
  plans['identify by host'] = await Promise.all(
    captured.map(async ({ query, params }) => ({
      sql: query,
      plan: await run(`explain (analyze, buffers) ${query}`, params),
    })),
  );
  return plans;
}

async function main() {
  if (!args['no-build']) buildServer();
  const cleanups = new Cleanups();
  try {
    const grown = await startSide(GROWN, SMALL, cleanups);
    const reference = await startSide(REFERENCE, SMALL, cleanups);
    console.error(`[both at ${SMALL} tenants]`);
    const before = await measureShapes([grown, reference], selected);
    console.error(`[growing one to ${LARGE} tenants]`);
    await grow(grown, LARGE);
    const after = await measureShapes([grown, reference], selected);
    const plans = await explainAll(grown);
    console.error('[creation]');
    const created = {
      plain: await measureCreation(grown, false),
      invited: await measureCreation(grown, true),
    };

    const list = figures(
      selected.map((shape) => shape.name),
      before,
      after,
    );
    console.log(table(listTable(list)));
    console.log(`\n${table(creationTable(created))}`);
    for (const [name, queries] of Object.entries(plans)) {
      console.log(`\n--- ${LARGE} tenants: ${name}`);
      for (const q of queries) console.log(`${q.sql}\n${q.plan.join('\n')}\n`);
    }
    const verdicts = {
      listRatio: list.every((m) => m.met),
      creation: Object.values(created).every(
        (r) => r.non2xx === 0 && r.requestsPerSecond >= TARGETS.creationsPerSecond,
      ),
    };
    console.log(verdicts);
    const settings = {
      small: SMALL,
      large: LARGE,
      durationS: DURATION,
      rounds: ROUNDS,
      warmupS: WARMUP,
      connections: CONNECTIONS,
      creations: CREATIONS,
      createConnections: CREATE_CONNECTIONS,
    };
    const machine = { cpus: os.availableParallelism(), node: process.version, load: os.loadavg() };
    const result = { date: new Date().toISOString(), machine, settings, targets: TARGETS };
    writeFileSync(
      resultsFile,
      `${JSON.stringify({ ...result, verdicts, list, creation: created, plans }, null, 2)}\n`,
    );
    console.error(`wrote ${resultsFile}`);
  } finally {
    await cleanups.run();
  }
}

await main();
