/**
 * CPU time over a run, from /proc (Linux; elsewhere every figure reads 0): the server (and its
 * event-loop thread), this database's PostgreSQL backends, this benchmark process, and the
 * rest of the machine. CPU milliseconds per operation are what still compare when other jobs
 * share the cores; on-CPU nanoseconds come from schedstat, as in the token benchmark.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface Watched {
  pid: number | undefined;
  databaseName: string | undefined;
}

export interface CpuSample {
  at: number;
  server: number;
  serverLoop: number;
  postgres: number;
  bench: number;
  /** Whole machine, all processes and the kernel, in ns. */
  machine: number;
}

function threadNanos(pid: string | number, tid: string | number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

function processNanos(pid: string | number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + threadNanos(pid, tid), 0);
  } catch {
    return 0;
  }
}

function postgresNanos(databaseName: string | undefined): number {
  if (!databaseName) return 0;
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(` ${databaseName} `)) sum += processNanos(pid);
    } catch {
      // it ended while we looked
    }
  }
  return sum;
}

function machineNanos(): number {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const busy = ticks.slice(1, 8).map(Number);
    // user nice system idle iowait irq softirq: all but idle and iowait, in 1/100 s.
    return (busy.reduce((a, b) => a + b, 0) - busy[3]! - busy[4]!) * 1e7;
  } catch {
    return 0;
  }
}

export function cpuSample(watched: Watched): CpuSample {
  return {
    at: performance.now(),
    server: watched.pid ? processNanos(watched.pid) : 0,
    serverLoop: watched.pid ? threadNanos(watched.pid, watched.pid) : 0,
    postgres: postgresNanos(watched.databaseName),
    bench: processNanos(process.pid),
    machine: machineNanos(),
  };
}

/** The CPU one run used: the difference of two samples. */
export function cpuBetween(before: CpuSample, after: CpuSample): CpuSample {
  return {
    at: after.at - before.at,
    server: after.server - before.server,
    serverLoop: after.serverLoop - before.serverLoop,
    postgres: after.postgres - before.postgres,
    bench: after.bench - before.bench,
    machine: after.machine - before.machine,
  };
}

export const addCpu = (a: CpuSample, b: CpuSample): CpuSample => ({
  at: a.at + b.at,
  server: a.server + b.server,
  serverLoop: a.serverLoop + b.serverLoop,
  postgres: a.postgres + b.postgres,
  bench: a.bench + b.bench,
  machine: a.machine + b.machine,
});
