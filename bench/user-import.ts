/**
 * User import benchmark: a CSV file of 100,000 users through the built server (a separate
 * process) on PostgreSQL: upload (streamed into the staging table), mapping and check (the
 * preview's totals), and apply (batches of 1,000: users, one audit entry and change event per
 * user, row outcomes). Each step's wall time, the total, and the server's resident memory:
 * VmRSS sampled every 20 ms and VmHWM (the kernel's own peak) from /proc.
 *
 *   npx tsx bench/user-import.ts [--rows 100000] [--engine postgres|pglite] [--no-build]
 *
 * Results: a table on stdout and bench/results/user-import.json. See bench/README.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { parseEngines } from './lib/database';
import { resultsDir } from './lib/paths';
import { memoryMiB } from './lib/process-memory';
import { passwordGrant, startServer } from './lib/server';
import { preparedDatabase } from './mix/fixture';
import { CONSOLE_PASSWORD, domainOf } from './mix/seed';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    engine: { type: 'string', default: 'postgres' },
    'no-build': { type: 'boolean', default: false },
  },
});

const ROWS = Number(args.rows);
const TENANT = 'import100k';
const CONSOLE = { email: `console1@${domainOf(TENANT)}`, password: CONSOLE_PASSWORD };

/** The file: a header in German (the mapping is suggested from it), then one user per line. */
function csvFile(rows: number): Buffer {
  const lines = ['Vorname;Nachname;E-Mail;Rolle;Status'];
  for (let i = 0; i < rows; i += 1) {
    lines.push(
      `Vor${i};Nach${i};imported${i}@bench-import.test;Member;${i % 10 ? 'aktiv' : 'inaktiv'}`,
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The highest VmRSS sampled since the last `take()`, so each step has its own peak. */
function rssPeaks(pid: number) {
  let peak = memoryMiB(pid).rss;
  let overall = peak;
  const timer = setInterval(() => {
    peak = Math.max(peak, memoryMiB(pid).rss);
    overall = Math.max(overall, peak);
  }, 20);
  return {
    take() {
      const taken = Math.max(peak, memoryMiB(pid).rss);
      overall = Math.max(overall, taken);
      peak = memoryMiB(pid).rss;
      return Math.round(taken);
    },
    stop() {
      clearInterval(timer);
      return Math.round(overall);
    },
  };
}

type Peaks = ReturnType<typeof rssPeaks>;

async function step<T>(
  name: string,
  work: () => Promise<T>,
  figures: { timings: Record<string, number>; peaks: Record<string, number>; rss: Peaks },
) {
  figures.rss.take();
  const started = performance.now();
  const result = await work();
  figures.timings[name] = Math.round(performance.now() - started);
  figures.peaks[name] = figures.rss.take();
  console.error(`${name}: ${figures.timings[name]} ms, RSS peak ${figures.peaks[name]} MiB`);
  return result;
}

async function main() {
  const [engine] = parseEngines(args.engine);
  if (!args['no-build']) buildServer();
  const cleanups = new Cleanups();
  try {
    const plan = { name: TENANT, users: 10, projects: 0, consoleEmails: [CONSOLE.email] };
    const { database } = await preparedDatabase(engine!, [plan], cleanups, 'bench_user_import');
    const server = await startServer({ env: database.env, cleanups, name: 'the import server' });
    const token = (await passwordGrant(server.url, TENANT, CONSOLE)).access_token;
    const pid = server.child.pid!;
    const idle = memoryMiB(pid);
    const rss = rssPeaks(pid);
    const file = csvFile(ROWS);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}/api/v1.0${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    const json = async <T>(response: Response) => {
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      return ((await response.json()) as { data: T }).data;
    };
    type Job = {
      id: string;
      rowCount: number;
      suggestedMapping: object;
      totals: object;
      progress: { created: number };
    };
    const timings: Record<string, number> = {};
    const peaks: Record<string, number> = {};
    const figures = { timings, peaks, rss };
    let peakRss = 0;
    let job: Job;
    try {
      job = await step(
        'upload',
        async () =>
          json<Job>(
            await api('/user-imports', {
              method: 'POST',
              body: new Blob([new Uint8Array(file)]),
              headers: { 'content-type': 'text/csv' },
            }),
          ),
        figures,
      );
      const checked = await step(
        'mapping + check',
        async () =>
          json<Job>(
            await api(`/user-imports/${job.id}/mapping`, {
              method: 'PUT',
              body: JSON.stringify({ mapping: job.suggestedMapping, sendInvitations: false }),
              headers: { 'content-type': 'application/json' },
            }),
          ),
        figures,
      );
      await step(
        'preview page',
        async () =>
          json(
            await api(`/user-imports/${job.id}/rows`, {
              method: 'POST',
              body: JSON.stringify({ pageSize: 100, filter: { status: 'error' } }),
              headers: { 'content-type': 'application/json' },
            }),
          ),
        figures,
      );
      const done = await step(
        'apply',
        async () => json<Job>(await api(`/user-imports/${job.id}/apply`, { method: 'POST' })),
        figures,
      );
      console.error(JSON.stringify({ totals: checked.totals, progress: done.progress }));
      if (done.progress.created !== ROWS) throw new Error(`created ${done.progress.created}`);
    } finally {
      peakRss = rss.stop();
    }
    const end = memoryMiB(pid);
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
      engine,
      rows: ROWS,
      fileMiB: Math.round((file.length / 2 ** 20) * 10) / 10,
      timingsMs: timings,
      stepPeakRssMiB: peaks,
      totalMs: Object.values(timings).reduce((sum, ms) => sum + ms, 0),
      idleRssMiB: Math.round(idle.rss),
      peakRssMiB: Math.round(Math.max(peakRss, end.rss)),
      vmHwmMiB: Math.round(end.hwm),
    };
    console.table([result.timingsMs]);
    console.table([result.stepPeakRssMiB]);
    console.table([
      { ...result, timingsMs: undefined, stepPeakRssMiB: undefined, machine: undefined },
    ]);
    writeFileSync(join(resultsDir, 'user-import.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await cleanups.run();
  }
}

await main();
