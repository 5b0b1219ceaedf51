/**
 * nginx in front of benchmark servers, run the way the fleet tests run it: from
 * deploy/nginx.conf with only where it runs changed (apps/server/src/test/nginx.ts), unprivileged,
 * in a folder of its own that is removed when it stops. Its processes are named so their CPU can
 * be counted apart from the servers'.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startNginx } from '../../apps/server/src/test/nginx';
import type { Cleanups } from './cleanups';

export interface BenchNginx {
  url: string;
  port: number;
  /** The master and its workers, as they are now. */
  pids(): number[];
  stop(): Promise<void>;
}

/** Parent process id from /proc/<pid>/stat (the field after the parenthesised name). */
function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // it ended while we looked
  }
}

/** `upstreams`: host:port of each server; `port`: where nginx listens (a free one if omitted). */
export async function startBenchNginx(
  upstreams: string[],
  cleanups: Cleanups,
  port?: number,
): Promise<BenchNginx> {
  const nginx = await startNginx(upstreams, port);
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= nginx.stop());
  cleanups.add(stop);
  const pids = () => {
    const workers = readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid) && parentOf(pid) === nginx.pid)
      .map(Number);
    return [nginx.pid, ...workers];
  };
  return { url: nginx.url, port: Number(new URL(nginx.url).port), pids, stop };
}
