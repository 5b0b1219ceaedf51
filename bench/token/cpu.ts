/**
 * Where the CPU goes during a run (the server, its event loop, PostgreSQL, this benchmark,
 * anything else), and waiting for a quiet machine: on a shared VM another job next door would
 * otherwise halve the figures unnoticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ATTEMPTS, CORES, IDLE_BUSY_PCT, IDLE_WAIT, OTHER_MAX_PCT, round } from './settings';

/** The process under measurement, and the PostgreSQL database whose backends count as its. */
export interface Measured {
  pid: number | undefined;
  databaseName: string | undefined;
}

/**
 * CPU time per process from /proc/<pid>/task/<tid>/schedstat: nanoseconds on a CPU, exact
 * (the tick-sampled utime/stime of /proc/<pid>/stat lose much of this workload's many short
 * runs between loopback wake-ups). Linux only; elsewhere every figure reads 0.
 */
function taskNanos(pid: string, tid: string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0; // the thread ended while we looked
  }
}

interface ProcessCpu {
  comm: string;
  /** PostgreSQL's processes only: e.g. "postgres: 15/main: postgres bench_token_… 127.0.0.1(…)". */
  cmdline: string;
  kernel: boolean;
  /** All threads. */
  nanos: number;
  /** The main thread alone: for Node.js, the event loop. */
  mainNanos: number;
}

function processTable(): Map<string, ProcessCpu> {
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
      for (const tid of readdirSync(`/proc/${pid}/task`)) nanos += taskNanos(pid, tid);
      const cmdline =
        comm === 'postgres' ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') : '';
      // Kernel threads (children of kthreadd, pid 2) work for whoever runs: page faults,
      // network, timers. They are the workload's own overhead, not another process.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const kernel = pid === '2' || stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === '2';
      table.set(pid, { comm, cmdline, kernel, nanos, mainNanos: taskNanos(pid, pid) });
    } catch {
      // the process ended while we looked
    }
  }
  return table;
}

/** Whole-machine busy time in seconds, from /proc/stat (idle and iowait excluded). */
function machineBusySeconds(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const ticks = line.trim().split(/\s+/).slice(1, 8).map(Number);
    const total = ticks.reduce((sum, t) => sum + t, 0);
    const idle = ticks[3]! + ticks[4]!;
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export interface CpuSnapshot {
  at: number;
  processes: Map<string, ProcessCpu>;
}

export const cpuSnapshot = (): CpuSnapshot => ({
  at: performance.now(),
  processes: processTable(),
});

/**
 * CPU use over a run, in % of one core (200 % = both cores of a 2-core machine): the server
 * (and its event loop alone), PostgreSQL, this benchmark process (autocannon), and any other
 * process, which on a shared machine is interference.
 */
export function cpuUse(before: CpuSnapshot, after: CpuSnapshot, server: Measured | undefined) {
  const serverPid = server?.pid;
  // PostgreSQL's shared background processes count; backends of other databases do not.
  const ours = (cmdline: string) =>
    !/\(\d+\)|\[local\]/.test(cmdline) ||
    (server?.databaseName !== undefined && cmdline.includes(` ${server.databaseName} `));
  const wall = (after.at - before.at) / 1e3;
  const pct = (nanos: number) => round((nanos / 1e9 / wall) * 100, 0);
  const sums = { server: 0, serverMain: 0, postgres: 0, bench: 0, kernel: 0, other: 0 };
  const others = new Map<string, number>();
  for (const [pid, now] of after.processes) {
    const then = before.processes.get(pid);
    const used = now.nanos - (then?.comm === now.comm ? then.nanos : 0);
    if (serverPid !== undefined && pid === String(serverPid)) {
      sums.server += used;
      sums.serverMain += now.mainNanos - (then?.mainNanos ?? 0);
    } else if (pid === String(process.pid)) sums.bench += used;
    else if (now.comm === 'postgres' && ours(now.cmdline)) sums.postgres += used;
    else if (now.kernel) sums.kernel += used;
    else {
      sums.other += used;
      others.set(now.comm, (others.get(now.comm) ?? 0) + used);
    }
  }
  const top = [...others].sort((a, b) => b[1] - a[1]).filter(([, n]) => pct(n) >= 5);
  return {
    serverPct: pct(sums.server),
    serverEventLoopPct: pct(sums.serverMain),
    postgresPct: pct(sums.postgres),
    benchPct: pct(sums.bench),
    kernelThreadsPct: pct(sums.kernel),
    otherPct: pct(sums.other),
    otherProcesses: Object.fromEntries(top.map(([comm, n]) => [comm, pct(n)])),
    capacityPct: CORES * 100,
  };
}

export const describeOther = (r: { otherCpuPct: number; otherProcesses: Record<string, number> }) =>
  `other processes ${r.otherCpuPct} % of a core: ` +
  Object.entries(r.otherProcesses)
    .map(([comm, pct]) => `${comm} ${pct} %`)
    .join(', ');

/** Busy share of the whole machine over one second. */
async function machineBusyPct(): Promise<number> {
  const before = machineBusySeconds();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = machineBusySeconds();
  const total = after.total - before.total;
  return total > 0 ? round(((after.busy - before.busy) / total) * 100, 0) : 0;
}

/**
 * Waits (up to --idle-wait seconds) for the machine to be idle before a measurement: on a
 * shared machine a test run or a type check next door halves the figures. Returns the last
 * busy share seen, recorded with the results.
 */
export async function waitForIdle(what: string): Promise<number> {
  const deadline = Date.now() + IDLE_WAIT * 1000;
  let busy = await machineBusyPct();
  let said = false;
  while (busy > IDLE_BUSY_PCT && Date.now() < deadline) {
    if (!said) console.error(`waiting for the machine to be idle before ${what} (${busy} % busy)…`);
    said = true;
    busy = await machineBusyPct();
  }
  if (busy > IDLE_BUSY_PCT) {
    console.error(`warning: measuring ${what} on a busy machine (${busy} %); figures will be low`);
  }
  return busy;
}

/**
 * Runs a measurement until no other process disturbed it (at most --attempts times): on a
 * shared machine, a test run next door would otherwise halve the figures.
 */
export async function undisturbed<
  T extends { cpu: { otherPct: number; otherProcesses: Record<string, number> } },
>(
  what: string,
  run: () => Promise<T>,
): Promise<T & { attempts: number; machineBusyBeforePct: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const busy = await waitForIdle(what);
    const result = await run();
    if (result.cpu.otherPct <= OTHER_MAX_PCT || attempt >= ATTEMPTS) {
      if (result.cpu.otherPct > OTHER_MAX_PCT) {
        console.error(
          `warning: ${what} disturbed (${describeOther({ otherCpuPct: result.cpu.otherPct, otherProcesses: result.cpu.otherProcesses })})`,
        );
      }
      return { ...result, attempts: attempt, machineBusyBeforePct: busy };
    }
    console.error(
      `interference during ${what} (${describeOther({ otherCpuPct: result.cpu.otherPct, otherProcesses: result.cpu.otherProcesses })}), again…`,
    );
  }
}
