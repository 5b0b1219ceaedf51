import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database, DatabaseHandle } from '../db/database';
import { mailOutbox } from '../db/schema/mail';
import { loggableError } from '../http/logging';
import {
  deliverMessage,
  expireMessage,
  keepMessage,
  linkExpired,
  type MailLog,
  type OutboxRow,
} from './delivery';
import { smtpTransport, type MailTransport } from './transport';

export { retryDelayMs, type MailLog } from './delivery';

export interface MailService {
  start(): Promise<void>;
  /** Stops polling and waits for the message being sent, so the app closes cleanly. */
  stop(): Promise<void>;
  /** Look for due messages now instead of at the next poll. */
  nudge(): void;
}

const BATCH = 10;
// A claimed message is someone's for this long; a process that dies mid-send leaves it to
// be retried afterwards (at-least-once), never lost.
const LEASE_SECONDS = 120;

/**
 * Claims due messages in one statement. `for update skip locked` lets several processes on
 * one PostgreSQL poll together without ever taking the same row; the lease (next_attempt_at
 * pushed forward) keeps it theirs after this statement commits, while they send.
 */
async function claimDue(db: Database): Promise<OutboxRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
    })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

/**
 * The outbox worker: polls due messages every MAIL_POLL_MS and when nudged after an enqueue,
 * sends them over SMTP or keeps them (no SMTP_URL). Polling rather than LISTEN: a held
 * connection would keep the pool from closing, and polling also finds retries that fell due.
 */
export function createMailService(options: {
  database: DatabaseHandle;
  config: Config;
  log: MailLog;
  transport?: MailTransport;
}): MailService {
  const { config, log } = options;
  const db = options.database.db;
  const smtp = options.transport ?? (config.smtpUrl ? smtpTransport(config.smtpUrl) : undefined);
  const handle = (row: OutboxRow) =>
    linkExpired(row)
      ? expireMessage(db, log, row)
      : smtp
        ? deliverMessage({ db, config, log, smtp }, row)
        : keepMessage(db, log, row);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  async function tick(): Promise<void> {
    let rows: OutboxRow[];
    do {
      rows = await claimDue(db);
      for (const row of rows) {
        if (stopped) return;
        await handle(row);
      }
    } while (rows.length === BATCH && !stopped);
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    clearTimeout(timer);
    running = tick()
      .catch((error: unknown) =>
        log.error({ err: loggableError(error) }, 'mail worker failed; will poll again'),
      )
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(run, again ? 0 : config.mail.pollMs);
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
      await running;
      smtp?.close();
    },
    nudge: run,
  };
}
