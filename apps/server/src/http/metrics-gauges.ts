import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../app-context';
import { mailOutbox } from '../db/schema/mail';
import { loggableError } from './logging';

/** What the process's event hub tells: connected streams, and its listener's state. */
export interface EventSource {
  readonly size: number;
  readonly state: string;
}

/** States the notification listener reports; each has its gauge, 1 for the current one. */
const LISTENER_STATES = ['idle', 'listening', 'reconnecting'];
/** Outbox statuses always reported, at 0 when no message has them. */
const MAIL_STATUSES = ['pending', 'sent', 'kept', 'dead'];

/**
 * Gauges read when Prometheus scrapes, never on a timer: the pool and the event hub are read
 * from memory; the outbox needs one grouped count (the outbox is shared by every process, so
 * a gauge read from the table says the same in each, where a counter per process would miss
 * another process's failures).
 */
export function registerScrapeGauges(
  register: Registry,
  ctx: AppContext,
  events: EventSource,
  log: FastifyBaseLogger,
): void {
  const pool = ctx.database.poolStats;
  // PGlite has no pool: its gauges are left out rather than reported as zeros.
  if (pool() !== undefined) {
    const poolGauge = (name: string, help: string, read: (stats: PoolRead) => number) =>
      new Gauge({
        name,
        help,
        registers: [register],
        collect() {
          const stats = pool();
          if (stats) this.set(read(stats));
        },
      });
    poolGauge(
      'tenant_console_db_pool_connections',
      'Connections the pool has open.',
      (s) => s.total,
    );
    poolGauge(
      'tenant_console_db_pool_idle_connections',
      'Open connections not in use.',
      (s) => s.idle,
    );
    poolGauge(
      'tenant_console_db_pool_waiting_requests',
      'Queries waiting for a free connection.',
      (s) => s.waiting,
    );
    poolGauge(
      'tenant_console_db_pool_max_connections',
      'Connections the pool may open.',
      (s) => s.max,
    );
  }

  new Gauge({
    name: 'tenant_console_notification_listener_state',
    help: "The event hub's PostgreSQL LISTEN connection: 1 for its current state.",
    labelNames: ['state'],
    registers: [register],
    collect() {
      const current = events.state;
      for (const state of new Set([...LISTENER_STATES, current])) {
        this.set({ state }, state === current ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'tenant_console_event_stream_clients',
    help: 'Event streams (GET /events) open in this process.',
    registers: [register],
    collect() {
      this.set(events.size);
    },
  });

  // Both outbox gauges come from one grouped count: prom-client collects every metric of a
  // scrape at once, so the second gauge finds the first one's read still under way.
  let reading: Promise<MailCount[] | undefined> | undefined;
  const readMail = () =>
    (reading ??= countMail(ctx)
      .catch(unread)
      .finally(() => {
        reading = undefined;
      }));
  const unread = (error: unknown) => {
    // The other metrics still help while the database does not answer: these are left out.
    log.warn({ err: loggableError(error) }, 'mail outbox metrics not read');
    return undefined;
  };
  const mailGauge = (name: string, help: string, read: (row: MailCount) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['status'],
      registers: [register],
      // Every process of a fleet reads the same table: their sum would count it N times.
      aggregator: 'max',
      async collect() {
        const rows = await readMail();
        this.reset();
        if (!rows) return;
        for (const status of MAIL_STATUSES) this.set({ status }, 0);
        for (const row of rows) this.set({ status: row.status }, read(row));
      },
    });
  mailGauge('tenant_console_mail_outbox_messages', 'Messages in the mail outbox, by status.', (r) =>
    Number(r.count),
  );
  mailGauge(
    'tenant_console_mail_outbox_failed_messages',
    'Outbox messages whose last delivery attempt failed, by status (pending: retrying).',
    (r) => Number(r.failed),
  );
}

interface MailCount {
  status: string;
  count: number;
  failed: number;
}

function countMail(ctx: AppContext): Promise<MailCount[]> {
  return ctx.db
    .select({
      status: mailOutbox.status,
      count: sql<number>`count(*)::int`,
      failed: sql<number>`(count(*) filter (where ${mailOutbox.lastError} is not null))::int`,
    })
    .from(mailOutbox)
    .groupBy(mailOutbox.status);
}

type PoolRead = NonNullable<ReturnType<AppContext['database']['poolStats']>>;
