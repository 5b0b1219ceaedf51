import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context';
import { loggableError } from '../../http/logging';
import { BATCH_SIZE, MAX_BATCHES, pruneAll, type PruneCounts } from './prune';

/** The log methods the job uses (Fastify's pino logger fits). */
export interface RetentionLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export type RetentionRun = { ran: true; counts: PruneCounts } | { ran: false };

export interface RetentionJob {
  start(): Promise<void>;
  /** Cancels the next run and waits for one in progress. */
  stop(): Promise<void>;
  /** One run now: `ran: false` when another process (or run) holds the lock. */
  runOnce(): Promise<RetentionRun>;
}

/** Next to the migration (727_001) and seed (727_002) locks. */
const RETENTION_LOCK = 727_003;
/**
 * The first run comes soon after start, once the process has settled; so does the next after
 * a run that stopped at its cap with rows left.
 */
const SOON_MS = 10_000;

const stoppedAtCap = (run: RetentionRun) =>
  run.ran && Object.values(run.counts).some((n) => n >= BATCH_SIZE * MAX_BATCHES);

/**
 * Prunes expired and old rows every RETENTION_INTERVAL, one process at a time: the run's
 * transaction takes a transaction-level advisory lock or, when another process has it, skips
 * this round. Transaction-level, because it is released by commit or rollback on whatever
 * pooled connection ran it, and works the same on the embedded database.
 */
export function createRetentionJob(
  ctx: Pick<AppContext, 'db' | 'config'>,
  log: RetentionLog,
): RetentionJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<RetentionRun> | undefined;
  let stopped = true;

  async function prune(): Promise<RetentionRun> {
    return ctx.db.transaction(async (tx) => {
      const result = await tx.execute(
        sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK}) as locked`,
      );
      const [row] = (result as unknown as { rows: { locked: boolean }[] }).rows;
      if (!row?.locked) return { ran: false } as const;
      return { ran: true, counts: await pruneAll(tx, ctx.config) } as const;
    });
  }

  function runOnce(): Promise<RetentionRun> {
    // One run at a time in this process too; a second caller shares the first's result.
    running ??= prune().finally(() => (running = undefined));
    return running;
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      const started = Date.now();
      const interval = ctx.config.retentionIntervalSeconds * 1000;
      runOnce()
        .then((run) => {
          if (run.ran) log.info({ ...run.counts, ms: Date.now() - started }, 'retention run');
          schedule(stoppedAtCap(run) ? Math.min(SOON_MS, interval) : interval);
        })
        .catch((error: unknown) => {
          log.error({ err: loggableError(error) }, 'retention run failed; will try again');
          schedule(interval);
        });
    }, delayMs);
    // Never what keeps a process alive.
    timer.unref();
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      schedule(Math.min(SOON_MS, ctx.config.retentionIntervalSeconds * 1000));
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
    runOnce,
  };
}
