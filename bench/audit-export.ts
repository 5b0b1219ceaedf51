/**
 * Audit log export benchmark: POST /api/v1.0/audit/export of the built server (a separate
 * process) on a tenant of 1,000,000 audit entries on PostgreSQL, beside a second tenant of as
 * many: wall time, time to the first byte, rows per second, and the server process's resident
 * memory (VmRSS from /proc, sampled every 20 ms during the export), its peak and its rise over
 * the idle server; then the whole log again from a server whose JavaScript heap is capped at
 * --heap-limit MiB, far below the file's size, which it can finish only by streaming.
 *
 *   npx tsx bench/audit-export.ts [--entries 1000000] [--heap-limit 64] [--no-build]
 *
 * Results: a table on stdout and bench/results/audit-export.json. See bench/README.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { readCsvExport, type ExportRead } from './lib/csv-export-read';
import { resultsDir } from './lib/paths';
import { rssMiB } from './lib/process-memory';
import { passwordGrant, startServer } from './lib/server';
import { preparedDatabase } from './mix/fixture';
import { CONSOLE_PASSWORD, domainOf } from './mix/seed';

const { values: args } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    'heap-limit': { type: 'string', default: '64' },
    'no-build': { type: 'boolean', default: false },
  },
});

const ENTRIES = Number(args.entries);
const HEAP_LIMIT_MIB = Number(args['heap-limit']);
const TENANTS = ['audit1m', 'neighbour'];
const CONSOLE = { email: `console1@${domainOf(TENANTS[0]!)}`, password: CONSOLE_PASSWORD };

/** The exports measured: the whole log in two orders, and filtered ones. */
const RUNS: Array<{ name: string; body: object }> = [
  { name: 'all, newest first', body: {} },
  { name: 'all, by entity', body: { listSort: { field: 'entity', direction: 0 } } },
  { name: 'updates of projects', body: { filter: { entity: 'projects', action: 'update' } } },
  {
    name: 'one month',
    body: { filter: { from: '2026-02-01T00:00:00Z', to: '2026-03-01T00:00:00Z' } },
  },
  { name: 'search "proj"', body: { filter: { search: 'proj' } } },
];

/**
 * `count` entries of each tenant, one a minute from 2026-01-01, by its users, of six entities
 * and three actions, each with a before and after of a few fields.
 */
async function seedEntries(url: string, count: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into audit_log (tenant_id, actor_id, action, entity, entity_id, before, after, created_at)
       select t.id, u.ids[1 + g % array_length(u.ids, 1)],
         (array['create','update','delete'])[1 + g % 3],
         (array['users','roles','permissions','projects','clients','tenants'])[1 + (g / 3) % 6],
         md5(g::text)::uuid::text,
         case when g % 3 <> 0 then jsonb_build_object('name', 'Name ' || g, 'budget', g % 1000) end,
         case when g % 3 <> 2 then jsonb_build_object('name', 'Name ' || (g + 1), 'budget', g % 1000,
           'tags', jsonb_build_array('a', 'b')) end,
         timestamptz '2026-01-01' + g * interval '1 minute'
       from tenants t,
         lateral (select array_agg(id) ids from (select id from users where tenant_id = t.id limit 100) s) u,
         generate_series(1, $2::int) g
       where t.name = any($1)`,
      [TENANTS, count],
    );
    await client.query('vacuum analyze audit_log');
  } finally {
    await client.end();
  }
}

/** One export read as a stream (nothing kept but counts), the server's memory sampled meanwhile. */
async function measureExport(url: string, token: string, pid: number, run: (typeof RUNS)[number]) {
  const idle = rssMiB(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
  const started = performance.now();
  let read: ExportRead;
  try {
    // JSON cells escape their line breaks: one CRLF ends one record.
    read = await readCsvExport(`${url}/api/v1.0/audit/export`, token, run.body, started);
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - started;
  peak = Math.max(peak, rssMiB(pid));
  const { firstByteMs: firstByte, bytes, lines } = read;
  const rows = lines - 1;
  const result = {
    name: run.name,
    rows,
    megabytes: Math.round(bytes / 2 ** 20),
    firstByteMs: Math.round(firstByte),
    wallMs: Math.round(wallMs),
    rowsPerSecond: Math.round(rows / (wallMs / 1000)),
    idleRssMiB: Math.round(idle),
    peakRssMiB: Math.round(peak),
    riseMiB: Math.round(peak - idle),
  };
  console.error(JSON.stringify(result));
  return result;
}

async function main() {
  if (!args['no-build']) buildServer();
  const cleanups = new Cleanups();
  try {
    const seeding = performance.now();
    const plans = TENANTS.map((name, i) => ({
      name,
      users: 1000,
      projects: 10,
      consoleEmails: i === 0 ? [CONSOLE.email] : [],
    }));
    const { database } = await preparedDatabase('postgres', plans, cleanups, 'bench_audit_export');
    console.error(`seeding ${ENTRIES} audit entries per tenant…`);
    await seedEntries(database.url!, ENTRIES);
    console.error(`seeded in ${Math.round((performance.now() - seeding) / 1000)} s`);
    const results = [];
    for (const heap of [undefined, HEAP_LIMIT_MIB]) {
      const nodeArgs = heap ? [`--max-old-space-size=${heap}`] : [];
      const server = await startServer({ env: database.env, cleanups, nodeArgs });
      const token = (await passwordGrant(server.url, TENANTS[0]!, CONSOLE)).access_token;
      const pid = server.child.pid!;
      // A small export first, so the idle figure is of a server that has run the code path.
      await measureExport(server.url, token, pid, {
        name: 'warm-up',
        body: { filter: { search: 'zzzz' } },
      });
      const runs = heap ? [{ ...RUNS[0]!, name: `${RUNS[0]!.name}, heap ≤ ${heap} MiB` }] : RUNS;
      for (const run of runs) results.push(await measureExport(server.url, token, pid, run));
      await server.stop();
    }
    console.table(results);
    const machine = { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30) };
    writeFileSync(
      join(resultsDir, 'audit-export.json'),
      `${JSON.stringify({ date: new Date().toISOString(), machine, entries: ENTRIES, results }, null, 2)}\n`,
    );
  } finally {
    await cleanups.run();
  }
}

await main();
