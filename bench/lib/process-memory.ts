import { readFileSync } from 'node:fs';

/** VmRSS (resident now) and VmHWM (the kernel's own peak) of a process in MiB, from /proc (Linux). */
export function memoryMiB(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** The resident set of a process in MiB. */
export const rssMiB = (pid: number) => memoryMiB(pid).rss;
