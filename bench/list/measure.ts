/** One measured run of the user list benchmark, with the CPU it cost the server and PostgreSQL. */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon, { type AutocannonResult } from 'autocannon';
import type { BenchServer } from '../lib/server';
import type { Scenario } from './scenarios';
import { CONNECTIONS, DURATION, round, WARMUP } from './settings';

export interface RunningServer extends BenchServer {
  /** The PostgreSQL database it runs on, to tell this database's backends in /proc. */
  databaseName?: string;
}

// ---------------------------------------------------------------------------------------------
// CPU accounting: ticks from /proc/<pid>/stat
// ---------------------------------------------------------------------------------------------

const TICK = 100;
/** CPU ticks per matching pid (processes that end during a run lose their share). */
function cpuTicks(
  match: (pid: string, comm: string, cmdline: string) => boolean,
): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!match(pid, comm, cmdline)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone
    }
  }
  return ticks;
}
const ticksUsed = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].reduce((sum, [pid, t]) => sum + t - (before.get(pid) ?? 0), 0);
function machineTicks() {
  const t = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 8)
    .map(Number);
  return {
    busy: t.reduce((a, b) => a + b, 0) - t[3]! - t[4]!,
    total: t.reduce((a, b) => a + b, 0),
  };
}

export async function measure(server: RunningServer, token: string, scenario: Scenario) {
  const url = `${server.url}/api/v1.0/users/page`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = JSON.stringify(scenario.body);
  const check = await fetch(url, { method: 'POST', headers, body });
  const checkText = await check.text();
  if (check.status !== 200) throw new Error(`${scenario.name}: ${check.status} ${checkText}`);
  const page = JSON.parse(checkText).data as {
    data: Array<{ email: string }>;
    totalCount: number;
    pageIndex: number;
    pageSize: number;
  };
  const firstResponse = {
    rows: page.data.length,
    totalCount: page.totalCount,
    firstEmail: page.data[0]?.email,
  };
  const offset = (page.pageIndex - 1) * page.pageSize;
  if (page.data.length === 0 && page.totalCount > offset)
    throw new Error(`${scenario.name}: empty page ${checkText}`);

  if (WARMUP > 0)
    await autocannon({
      url,
      method: 'POST',
      headers,
      body,
      connections: CONNECTIONS,
      duration: WARMUP,
    });
  const load = os.loadavg();
  const isPg = (_: string, comm: string, cmdline: string) =>
    comm === 'postgres' &&
    (!/\(\d+\)/.test(cmdline) ||
      (!!server.databaseName && cmdline.includes(` ${server.databaseName} `)));
  const isServer = (pid: string) => pid === String(server.child.pid);
  const serverTicks = cpuTicks(isServer);
  const pgTicks = cpuTicks(isPg);
  const before = {
    serverTicks,
    pgTicks,
    server: 0,
    pg: 0,
    machine: machineTicks(),
    at: performance.now(),
  };
  console.error(
    `  ${scenario.name}: ${DURATION} s, ${CONNECTIONS} connections (load ${load.map((l) => round(l, 2)).join(' ')})`,
  );
  let sent = 0;
  const vary = scenario.vary;
  const result: AutocannonResult = await autocannon({
    url,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: DURATION,
    ...(vary && {
      requests: [
        { setupRequest: (request) => ({ ...request, body: JSON.stringify(vary(sent++)) }) },
      ],
    }),
  });
  const wall = (performance.now() - before.at) / 1000;
  const afterTicks = { server: cpuTicks(isServer), pg: cpuTicks(isPg), machine: machineTicks() };
  const after = {
    server: before.server + ticksUsed(before.serverTicks, afterTicks.server),
    pg: before.pg + ticksUsed(before.pgTicks, afterTicks.pg),
    machine: afterTicks.machine,
  };
  const pct = (ticks: number) => round((ticks / TICK / wall) * 100, 0);
  return {
    scenario: scenario.name,
    body: scenario.body,
    firstResponse,
    requestsPerSecond: round(result.requests.average, 0),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    total2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    loadAverageBefore: load.map((l) => round(l, 2)),
    cpuPctOfOneCore: {
      server: pct(after.server - before.server),
      postgres: pct(after.pg - before.pg),
      machineBusy: pct(after.machine.busy - before.machine.busy),
    },
    /** CPU per request: robust against other processes sharing the cores. */
    cpuMsPerRequest: {
      server: round(
        ((after.server - before.server) * (1000 / TICK)) / Math.max(1, result['2xx']),
        2,
      ),
      postgres: round(((after.pg - before.pg) * (1000 / TICK)) / Math.max(1, result['2xx']), 2),
    },
  };
}

export type RunResult = Awaited<ReturnType<typeof measure>>;
