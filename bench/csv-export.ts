/**
 * CSV export benchmark: POST /api/v1.0/users/export of the built server (a separate process) on
 * a tenant of 1,000,000 users on PostgreSQL: wall time, time to the first byte, rows per
 * second, and the server process's resident memory (VmRSS from /proc, sampled every 20 ms
 * during the export), its peak and its rise over the idle server, which shows whether the
 * export streams in constant memory; then the same export from a server whose heap is capped
 * at --heap-limit MiB.
 *
 *   npx tsx bench/csv-export.ts [--users 1000000] [--engine postgres|pglite] [--no-build]
 *                               [--heap-limit 64]
 *
 * Results: a table on stdout and bench/results/csv-export.json. See bench/README.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from './lib/build';
import { cpuSample, cpuUse } from './lib/cpu';
import { Cleanups } from './lib/cleanups';
import { parseEngines } from './lib/database';
import { readCsvExport, type ExportRead } from './lib/csv-export-read';
import { resultsDir } from './lib/paths';
import { rssMiB } from './lib/process-memory';
import { passwordGrant, startServer } from './lib/server';
import { preparedDatabase } from './mix/fixture';
import { CONSOLE_PASSWORD, domainOf } from './mix/seed';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    engine: { type: 'string', default: 'postgres' },
    'no-build': { type: 'boolean', default: false },
    'heap-limit': { type: 'string', default: '64' },
  },
});

const USERS = Number(args.users);
const HEAP_LIMIT_MIB = Number(args['heap-limit']);
const TENANT = 'export1m';
const CONSOLE = { email: `console1@${domainOf(TENANT)}`, password: CONSOLE_PASSWORD };

/** The exports measured: the whole list in two orders, and a filtered, searched one. */
const RUNS: Array<{ name: string; body: object }> = [
  { name: 'all, by e-mail', body: { listSort: { field: 'email', direction: 0 } } },
  { name: 'all, by role (role by role)', body: { listSort: { field: 'role', direction: 1 } } },
  {
    name: 'active, search "an", by last name',
    body: {
      filter: { status: 'active', search: 'an' },
      listSort: { field: 'lastName', direction: 0 },
    },
  },
];

interface ExportResult {
  name: string;
  rows: number;
  bytes: number;
  firstByteMs: number;
  wallMs: number;
  rowsPerSecond: number;
  idleRssMiB: number;
  peakRssMiB: number;
  riseMiB: number;
  /** The peak in the first and in the second half of the export's time: flat when streaming. */
  peakFirstHalfMiB: number;
  peakSecondHalfMiB: number;
  /** CPU of the server process and of this database's PostgreSQL backends, and the machine's busy share. */
  serverCpuSeconds: number;
  databaseCpuSeconds: number;
  machineBusyPct: number;
}

/** One export read as a stream (nothing kept but counts), the server's memory sampled meanwhile. */
async function measureExport(
  url: string,
  token: string,
  where: { pid: number; databaseName?: string },
  run: (typeof RUNS)[number],
) {
  const { pid } = where;
  const idle = rssMiB(pid);
  const cpuBefore = cpuSample();
  const samples: Array<{ at: number; rss: number }> = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    samples.push({ at: performance.now() - started, rss: rssMiB(pid) });
  }, 20);
  let read: ExportRead;
  try {
    // Users have no line breaks in their cells: one CRLF ends one record.
    read = await readCsvExport(`${url}/api/v1.0/users/export`, token, run.body, started);
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - started;
  const cpu = cpuUse(cpuBefore, cpuSample(), {
    serverPids: [pid],
    databaseName: where.databaseName,
  });
  samples.push({ at: wallMs, rss: rssMiB(pid) });
  const peakOf = (part: typeof samples) => Math.round(Math.max(idle, ...part.map((x) => x.rss)));
  const peak = peakOf(samples);
  const { firstByteMs: firstByte, bytes, lines } = read;
  const rows = lines - 1;
  const result: ExportResult = {
    name: run.name,
    rows,
    bytes,
    firstByteMs: Math.round(firstByte),
    wallMs: Math.round(wallMs),
    rowsPerSecond: Math.round(rows / (wallMs / 1000)),
    idleRssMiB: Math.round(idle),
    peakRssMiB: peak,
    riseMiB: Math.round(peak - idle),
    peakFirstHalfMiB: peakOf(samples.filter((x) => x.at < wallMs / 2)),
    peakSecondHalfMiB: peakOf(samples.filter((x) => x.at >= wallMs / 2)),
    serverCpuSeconds: Math.round(cpu.serverMs / 100) / 10,
    databaseCpuSeconds: Math.round(cpu.databaseMs / 100) / 10,
    machineBusyPct: Math.round(cpu.machineBusyPct),
  };
  console.error(JSON.stringify(result));
  return result;
}

async function main() {
  const [engine] = parseEngines(args.engine);
  if (!args['no-build']) buildServer();
  const cleanups = new Cleanups();
  try {
    const seeding = performance.now();
    console.error(`seeding ${USERS} users on ${engine}…`);
    const plan = { name: TENANT, users: USERS, projects: 1000, consoleEmails: [CONSOLE.email] };
    const { database } = await preparedDatabase(engine!, [plan], cleanups, 'bench_csv_export');
    console.error(`seeded in ${Math.round((performance.now() - seeding) / 1000)} s`);
    const results: ExportResult[] = [];
    // Then the whole list again on a server whose JavaScript heap is capped below the file's
    // size (93 MB of text, twice that as JavaScript strings): it can finish only by streaming.
    const heaps = [undefined, HEAP_LIMIT_MIB];
    for (const heap of heaps) {
      const nodeArgs = heap ? [`--max-old-space-size=${heap}`] : [];
      const server = await startServer({ env: database.env, cleanups, nodeArgs });
      const token = (await passwordGrant(server.url, TENANT, CONSOLE)).access_token;
      const where = { pid: server.child.pid!, databaseName: database.name };
      // A small export first, so the idle figure is of a server that has run the code path.
      await measureExport(server.url, token, where, {
        name: 'warm-up',
        body: { filter: { search: 'zz' }, listSort: { field: 'email', direction: 0 } },
      });
      const runs = heap ? [{ ...RUNS[0]!, name: `${RUNS[0]!.name}, heap ≤ ${heap} MiB` }] : RUNS;
      for (const run of runs) results.push(await measureExport(server.url, token, where, run));
      await server.stop();
    }
    console.table(results);
    writeFileSync(
      join(resultsDir, 'csv-export.json'),
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
          engine,
          users: USERS,
          results,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await cleanups.run();
  }
}

await main();
