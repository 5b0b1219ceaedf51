import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/webhooks';
import { loggableError } from '../http/logging';
import type { SecretBox } from '../identity/second-factor/secret-box';
import {
  attemptDelivery,
  DEFAULT_RETRY_POLICY,
  type ClaimedDelivery,
  type RetryPolicy,
  type WebhookLog,
} from './delivery';

export { DEFAULT_RETRY_POLICY, type RetryPolicy, type WebhookLog } from './delivery';

export interface WebhookWorker {
  start(): Promise<void>;
  /** Stops polling and waits for the deliveries under way, so the app closes cleanly. */
  stop(): Promise<void>;
  /** Look for due deliveries now instead of at the next poll. */
  nudge(): void;
}

/** What tests and benchmarks may change; the defaults suit production. */
export interface WebhookWorkerTuning {
  pollMs?: number;
  /** Deliveries sent at once by this process. */
  concurrency?: number;
  /** A claimed delivery is this process's for this long (then retried: at least once). */
  leaseSeconds?: number;
  retry?: Partial<RetryPolicy>;
}

/**
 * Claims due deliveries in one statement: `for update skip locked` lets several processes
 * poll together without taking the same row; the lease (next_attempt_at pushed forward) keeps
 * it theirs after the statement commits, while they send.
 */
async function claimDue(db: Database, limit: number, leaseSeconds: number) {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, sql`now()`),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      firstAttemptAt: sql`coalesce(${webhookDeliveries.firstAttemptAt}, now())`,
      lastAttemptAt: sql`now()`,
      nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
    })
    .where(inArray(webhookDeliveries.id, due))
    .returning({
      id: webhookDeliveries.id,
      tenantId: webhookDeliveries.tenantId,
      endpointId: webhookDeliveries.endpointId,
      eventType: webhookDeliveries.eventType,
      messageId: webhookDeliveries.messageId,
      payload: webhookDeliveries.payload,
      attempts: webhookDeliveries.attempts,
      firstAttemptAt: webhookDeliveries.firstAttemptAt,
    });
  if (claimed.length === 0) return [];
  const endpoints = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      secretSealed: webhookEndpoints.secretSealed,
      ownerId: webhookEndpoints.ownerId,
    })
    .from(webhookEndpoints)
    .where(
      inArray(
        webhookEndpoints.id,
        claimed.map((row) => row.endpointId),
      ),
    );
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  return claimed.flatMap((row): ClaimedDelivery[] => {
    const endpoint = byId.get(row.endpointId);
    // Deleted meanwhile: its deliveries went with it (on delete cascade).
    if (!endpoint) return [];
    return [
      {
        ...row,
        firstAttemptAt: row.firstAttemptAt ?? new Date(),
        url: endpoint.url,
        secretSealed: endpoint.secretSealed,
        ownerId: endpoint.ownerId,
      },
    ];
  });
}

/**
 * The webhook worker: polls due deliveries (and when nudged after a change queued some),
 * sends up to `concurrency` at once, and loops while it finds a full batch. Polling rather
 * than LISTEN, as the mail worker: retries fall due without anyone telling.
 */
export function createWebhookWorker(options: {
  db: Database;
  secrets: SecretBox;
  allowPrivate: boolean;
  log: WebhookLog;
  tuning?: WebhookWorkerTuning;
}): WebhookWorker {
  const { db, log } = options;
  const tuning = options.tuning ?? {};
  const pollMs = tuning.pollMs ?? 1_000;
  const concurrency = Math.max(1, tuning.concurrency ?? 16);
  const leaseSeconds = tuning.leaseSeconds ?? 60;
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...tuning.retry };
  const deps = {
    db,
    log,
    secrets: options.secrets,
    allowPrivate: options.allowPrivate,
    // A lease shorter than an attempt could hand the row to another process mid-send.
    policy: { ...retry, timeoutMs: Math.min(retry.timeoutMs, leaseSeconds * 1000 - 1000) },
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  let wake: (() => void) | undefined;
  async function oneEndsOrWake(underWay: Set<Promise<void>>): Promise<void> {
    let poll: NodeJS.Timeout | undefined;
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
      poll = setTimeout(resolve, pollMs);
    });
    await Promise.race([...underWay, woken]);
    clearTimeout(poll);
    wake = undefined;
  }

  /**
   * Keeps up to `concurrency` deliveries under way, claiming more as soon as one ends, so one
   * slow receiver (up to its timeout) does not hold up the others. Ends when nothing is due
   * and nothing is under way.
   */
  async function tick(): Promise<void> {
    const underWay = new Set<Promise<void>>();
    while (!stopped) {
      const rows =
        underWay.size < concurrency
          ? await claimDue(db, concurrency - underWay.size, leaseSeconds)
          : [];
      for (const row of rows) {
        const sent: Promise<void> = attemptDelivery(deps, row)
          .catch((error: unknown) =>
            log.error(
              { deliveryId: row.id, err: loggableError(error) },
              'webhook delivery could not be recorded; retried after its lease',
            ),
          )
          .finally(() => underWay.delete(sent));
        underWay.add(sent);
      }
      if (underWay.size === 0) break;
      // Full, or nothing more due for now: wait for one to end, a nudge or the next poll.
      if (rows.length === 0 || underWay.size >= concurrency) await oneEndsOrWake(underWay);
    }
    await Promise.all(underWay);
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      wake?.();
      return;
    }
    again = false;
    clearTimeout(timer);
    running = tick()
      .catch((error: unknown) =>
        log.error({ err: loggableError(error) }, 'webhook worker failed; will poll again'),
      )
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(run, again ? 0 : pollMs);
      });
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await running;
    },
    nudge: run,
  };
}
