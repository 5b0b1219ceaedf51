/**
 * The mix through nginx in front of 1, 2, 3… server processes on one PostgreSQL database
 * (`--processes`): where the time goes as processes are added, per row the CPU per request of
 * the processes together, of nginx and of the database's backends, and each one's share of the
 * machine. With one process the mix also goes straight to it, so nginx's own cost shows.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { buildServer, serverIsStale } from '../lib/build';
import { Cleanups } from '../lib/cleanups';
import { startBenchNginx } from '../lib/nginx';
import { root } from '../lib/paths';
import { freePort, startServer, type BenchServer } from '../lib/server';
import { table } from '../lib/table';
import type { Console, Target } from './console';
import { preparedDatabase } from './fixture';
import { closedLoop } from './load';
import { consolesOf, plansOf } from './plans';
import { errorLines, summarize, type RunSummary } from './report';
import { provenance } from './results-file';
import {
  args,
  CONNECTIONS,
  DURATION,
  OUT,
  PROCESSES,
  round,
  SEED,
  selectedEngine,
  selectedScenarios,
  WARMUP,
} from './settings';
import { mixOp } from './workload';

export interface FleetRow extends RunSummary {
  processes: number;
  /** `direct`: the consoles talk to the one process; `nginx`: to nginx in front of them all. */
  via: 'direct' | 'nginx';
  nginxMsPerRequest: number | null;
  /** % of one core over the window (200 = both cores of a 2-core machine). */
  nginxPct: number | null;
}

// Every process must decrypt what another encrypted; not a secret, the bench's own constant.
const SHARED_MFA_KEY = Buffer.alloc(32, 7).toString('base64');

function fleetTable(rows: FleetRow[]): string {
  const text = (value: number | null) => (value === null ? '—' : String(value));
  return table([
    [
      'processes',
      'via',
      'consoles',
      'req/s',
      'p50 ms',
      'p99 ms',
      'non-2xx',
      'srv ms/req',
      'nginx ms/req',
      'db ms/req',
      'gen ms/req',
      'srv %',
      'nginx %',
      'db %',
      'gen %',
      'busy %',
    ],
    ...rows.map((r) => [
      String(r.processes),
      r.via,
      String(r.consoles),
      text(r.requestsPerSecond),
      text(r.latencyMs.p50),
      text(r.latencyMs.p99),
      text(r.latencyMs.non2xx),
      text(r.cpuMsPerRequest.server),
      text(r.nginxMsPerRequest),
      text(r.cpuMsPerRequest.database),
      text(r.cpuMsPerRequest.bench),
      text(r.cpuPct.server),
      text(r.nginxPct),
      text(r.cpuPct.database),
      text(r.cpuPct.bench),
      text(r.cpuPct.machineBusy),
    ]),
  ]);
}

export async function runFleet() {
  if (selectedEngine() !== 'postgres') {
    throw new Error('--processes needs PostgreSQL: the embedded database serves one process');
  }
  const scenarios = selectedScenarios();
  if (scenarios.length !== 1) throw new Error('--processes measures one scenario at a time');
  const scenario = scenarios[0]!;
  if (PROCESSES.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--processes is a list of whole numbers from 1, not ${args.processes}`);
  }
  if (!args['no-build'] && !args.server && serverIsStale()) buildServer();
  const measuredAt = provenance();
  const loadAverageBefore = os.loadavg().map((load) => Math.round(load * 100) / 100);
  console.error(`[${scenario.name} on postgres, ${PROCESSES.join(', ')} processes]`);

  const cleanups = new Cleanups();
  const rows: FleetRow[] = [];
  const servers: BenchServer[] = [];
  let seedSeconds = 0;
  try {
    const consoleCount = Math.max(1, ...CONNECTIONS);
    const started = performance.now();
    const { database, tenants } = await preparedDatabase(
      'postgres',
      plansOf(scenario, consoleCount),
      cleanups,
      'bench_fleet',
    );
    seedSeconds = round((performance.now() - started) / 1000);
    // One nginx port for every fleet: the issuer in the tokens is the public URL, which every
    // process must share, so a token from one is good at the others and across fleets.
    const nginxPort = await freePort();
    const env = {
      ...database.env,
      PUBLIC_URL: `http://127.0.0.1:${nginxPort}`,
      TRUST_PROXY: '127.0.0.1',
      MFA_ENCRYPTION_KEY: SHARED_MFA_KEY,
    };
    const script = args.server && join(root, args.server);
    const consoles = consolesOf(tenants, consoleCount);
    let signedIn = false;

    const measure = async (
      processes: number,
      via: FleetRow['via'],
      group: Console[],
      target: Target,
      proxyPids: number[],
    ) => {
      for (const c of group) {
        c.totals.clear();
        // The same stream in every row: each fleet is sent the same requests.
        c.reseed(SEED * 1000 + 1);
      }
      const load = os.loadavg()[0]!;
      console.error(
        `  ${processes} × via ${via}, ${group.length} consoles, ${DURATION} s (load ${load.toFixed(2)})`,
      );
      const serverPids = servers.slice(0, processes).map((server) => server.child.pid!);
      const result = await closedLoop(group, target, mixOp, {
        warmupS: WARMUP,
        durationS: DURATION,
        measured: { serverPids, databaseName: database.name, proxyPids },
      });
      const summary = summarize('mix', result, 'postgres');
      const proxied = via === 'nginx';
      rows.push({
        ...summary,
        processes,
        via,
        nginxMsPerRequest: proxied
          ? round(result.cpu.proxyMs / Math.max(1, result.requests), 3)
          : null,
        nginxPct: proxied ? round((result.cpu.proxyMs / result.cpu.wallMs) * 100, 0) : null,
        loadAverage1m: round(load, 2),
      });
    };

    for (const processes of PROCESSES) {
      // Added one after the other and kept: the first migrated nothing (the seed did), the
      // others find the same database; a smaller fleet later reuses the first ones.
      while (servers.length < processes) {
        servers.push(
          await startServer({
            env,
            cleanups,
            name: `server process ${servers.length + 1}`,
            ...(script && { script, nodeArgs: script.endsWith('.ts') ? ['--import', 'tsx'] : [] }),
          }),
        );
      }
      const fleet = servers.slice(0, processes);
      const nginx = await startBenchNginx(
        fleet.map((server) => `127.0.0.1:${server.port}`),
        cleanups,
        nginxPort,
      );
      const viaNginx: Target = { host: '127.0.0.1', port: nginx.port };
      if (!signedIn) {
        for (const c of consoles) {
          c.use(viaNginx);
          await c.signIn();
          c.close();
        }
        signedIn = true;
        console.error(`  ${consoles.length} consoles signed in`);
      }
      for (const connections of CONNECTIONS) {
        const group = consoles.slice(0, connections);
        if (processes === 1) {
          await measure(1, 'direct', group, { host: '127.0.0.1', port: fleet[0]!.port }, []);
        }
        await measure(processes, 'nginx', group, viaNginx, nginx.pids());
      }
      await nginx.stop();
    }
    if (rows.some((row) => Object.keys(row.statuses).some((status) => status.startsWith('5')))) {
      for (const [i, server] of servers.entries()) {
        console.error(`  process ${i + 1} printed, at the end:\n${server.output().slice(-2000)}`);
      }
    }
  } finally {
    await cleanups.run();
  }

  console.log(`\n=== ${scenario.name} on postgres: ${scenario.tenants} × ${scenario.users} users`);
  console.log(fleetTable(rows));
  for (const row of rows) {
    const lines = errorLines(row);
    if (lines.length > 0) {
      console.log(`\n${row.processes} × via ${row.via} at ${row.consoles}, non-2xx:`);
      console.log(lines.join('\n'));
    }
  }
  const settings = {
    processes: PROCESSES,
    connections: CONNECTIONS,
    durationS: DURATION,
    warmupS: WARMUP,
    seed: SEED,
    server: args.server ?? 'apps/server/dist/main.js',
  };
  const sizes = { ...scenario, consoles: Math.max(1, ...CONNECTIONS) };
  const result = { scenario: scenario.name, engine: 'postgres', sizes, seedSeconds, rows };
  writeFileSync(
    OUT,
    JSON.stringify({ ...result, ...measuredAt, loadAverageBefore, settings }, null, 2) + '\n',
  );
  console.error(`wrote ${OUT}`);
}
