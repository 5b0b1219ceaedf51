import cluster, { type Worker } from 'node:cluster';
import { answerFleetMetrics } from './http/metrics-fleet';

/** A worker that dies sooner than this after its start is restarted only after a pause. */
const QUICK_DEATH_MS = 5_000;
const RESTART_PAUSE_MS = 1_000;

/**
 * The primary of `WORKERS=N npm start`: forks N server processes sharing the port (each
 * accepts connections from it), restarts one that dies, and on SIGTERM or
 * SIGINT passes the signal on and exits once every worker has stopped.
 */
export function runFleet(workers: number, log: (line: string) => void): void {
  // The workers accept connections from the shared socket themselves. With node:cluster's
  // default (the primary accepts and hands each connection to a worker in turn), a connection
  // handed to a worker the moment it crashes is never answered nor closed: its client hangs.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  const startedAt = new Map<Worker, number>();

  const fork = () => startedAt.set(cluster.fork(), Date.now());
  // A scrape reaches one worker, which asks here for every worker's metrics.
  answerFleetMetrics();
  for (let i = 0; i < workers; i += 1) fork();

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (startedAt.size === 0) process.exit(0);
      return;
    }
    log(
      `worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`,
    );
    // A worker that cannot start at all would otherwise be restarted in a tight loop.
    setTimeout(fork, lived < QUICK_DEATH_MS ? RESTART_PAUSE_MS : 0);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of startedAt.keys()) worker.process.kill(signal);
    if (startedAt.size === 0) process.exit(0);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGTERM'));
}
