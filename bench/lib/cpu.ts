/**
 * CPU time of the processes a benchmark run involves, exact to the nanosecond: each thread's
 * time on a CPU from /proc/<pid>/task/<tid>/schedstat (the tick-sampled utime and stime of
 * /proc/<pid>/stat lose much of a server's many short runs between loopback wake-ups). On a
 * shared machine, CPU per request is the figure that still holds when other jobs run beside.
 * Linux only; elsewhere every figure reads 0.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcessCpu {
  comm: string;
  /** PostgreSQL's only: "postgres: 15/main: postgres bench_mix_… 127.0.0.1(…) idle". */
  cmdline: string;
  nanos: number;
}

export interface CpuSample {
  at: number;
  processes: Map<string, ProcessCpu>;
  machine: { busy: number; total: number };
}

function threadNanos(pid: string, tid: string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0; // the thread ended while we looked
  }
}

function processes(): Map<string, ProcessCpu> {
  const table = new Map<string, ProcessCpu>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      let nanos = 0;
      for (const tid of readdirSync(`/proc/${pid}/task`)) nanos += threadNanos(pid, tid);
      const cmdline =
        comm === 'postgres' ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') : '';
      table.set(pid, { comm, cmdline, nanos });
    } catch {
      // the process ended while we looked
    }
  }
  return table;
}

/** Whole-machine busy and total time in ticks, from /proc/stat (idle and iowait excluded). */
function machineTicks(): { busy: number; total: number } {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1, 8)
      .map(Number);
    const total = ticks.reduce((sum, t) => sum + t, 0);
    return { busy: total - ticks[3]! - ticks[4]!, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export const cpuSample = (): CpuSample => ({
  at: performance.now(),
  processes: processes(),
  machine: machineTicks(),
});

export interface Measured {
  /** Processes whose CPU is "the server's" (a Node.js process; PGlite runs inside it). */
  serverPids: number[];
  /** PostgreSQL database whose backends count as the database's CPU. */
  databaseName?: string;
  /** A reverse proxy in front of the server (nginx's master and workers), counted apart. */
  proxyPids?: number[];
}

export interface CpuUse {
  wallMs: number;
  /** Milliseconds of CPU over the interval. */
  serverMs: number;
  /** The proxy's processes, when `proxyPids` named any. */
  proxyMs: number;
  /** Backends serving this database. */
  databaseMs: number;
  /** PostgreSQL's shared processes (WAL writer, checkpointer…): also other databases' work. */
  postgresSharedMs: number;
  /** This benchmark process: the load generator. */
  benchMs: number;
  /** Everything else, kernel threads included: interference on a shared machine. */
  otherMs: number;
  /** Busy share of the whole machine, % (100 = every core busy). */
  machineBusyPct: number;
}

export function cpuUse(before: CpuSample, after: CpuSample, measured: Measured): CpuUse {
  const servers = new Set(measured.serverPids.map(String));
  const proxies = new Set((measured.proxyPids ?? []).map(String));
  const name = measured.databaseName;
  const sums = { server: 0, proxy: 0, database: 0, shared: 0, bench: 0, other: 0 };
  for (const [pid, now] of after.processes) {
    const then = before.processes.get(pid);
    const used = now.nanos - (then?.comm === now.comm ? then.nanos : 0);
    if (servers.has(pid)) sums.server += used;
    else if (proxies.has(pid)) sums.proxy += used;
    else if (pid === String(process.pid)) sums.bench += used;
    else if (now.comm === 'postgres' && name && now.cmdline.includes(` ${name} `)) {
      sums.database += used;
    } else if (now.comm === 'postgres' && !/\(\d+\)|\[local\]/.test(now.cmdline)) {
      sums.shared += used;
    } else sums.other += used;
  }
  const ms = (nanos: number) => nanos / 1e6;
  const machineTotal = after.machine.total - before.machine.total;
  return {
    wallMs: after.at - before.at,
    serverMs: ms(sums.server),
    proxyMs: ms(sums.proxy),
    databaseMs: ms(sums.database),
    postgresSharedMs: ms(sums.shared),
    benchMs: ms(sums.bench),
    otherMs: ms(sums.other),
    machineBusyPct:
      machineTotal > 0 ? ((after.machine.busy - before.machine.busy) / machineTotal) * 100 : 0,
  };
}
