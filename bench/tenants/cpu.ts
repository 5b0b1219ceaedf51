/** CPU ticks of chosen processes, from /proc/<pid>/stat (Linux). */
import { readdirSync, readFileSync } from 'node:fs';

export const TICK = 100;

export type ProcessMatch = (pid: string, comm: string, cmdline: string) => boolean;

export interface CpuCounter {
  server: ProcessMatch;
  postgres: ProcessMatch;
}

/** User + system ticks per matching pid (a process that ends during a run loses its share). */
export function cpuTicks(match: ProcessMatch): Map<string, number> {
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
      // gone meanwhile
    }
  }
  return ticks;
}

/**
 * The server process, and the PostgreSQL backends of its database: the shared PostgreSQL's own
 * processes (checkpointer, WAL writer, autovacuum) also serve other users' databases, so they
 * are left out.
 */
export function serverAndDatabase(serverPid: number, databaseName: string): CpuCounter {
  return {
    server: (pid) => pid === String(serverPid),
    postgres: (_pid, comm, cmdline) => comm === 'postgres' && cmdline.includes(` ${databaseName} `),
  };
}
