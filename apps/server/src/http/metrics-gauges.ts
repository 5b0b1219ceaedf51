import { sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../app-context';
import { mailOutbox } from '../db/schema/mail';

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
 * from memory; the outbox needs one grouped count, which the caller runs per scrape with
 * `refreshMail` (the outbox is shared by every process, so a gauge read from the table says
 * the same in each, where a counter per process would miss another process's failures).
 */
export function registerScrapeGauges(
  register: Registry,
  ctx: AppContext,
  events: EventSource,
): { refreshMail(): Promise<void>; clearMail(): void } {
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

  const messages = new Gauge({
    name: 'tenant_console_mail_outbox_messages',
    help: 'Messages in the mail outbox, by status.',
    labelNames: ['status'],
    registers: [register],
  });
  const failed = new Gauge({
    name: 'tenant_console_mail_outbox_failed_messages',
    help: 'Outbox messages whose last delivery attempt failed, by status (pending: retrying).',
    labelNames: ['status'],
    registers: [register],
  });
  return {
    async refreshMail() {
      const rows = await ctx.db
        .select({
          status: mailOutbox.status,
          count: sql<number>`count(*)::int`,
          failed: sql<number>`(count(*) filter (where ${mailOutbox.lastError} is not null))::int`,
        })
        .from(mailOutbox)
        .groupBy(mailOutbox.status);
      messages.reset();
      failed.reset();
      for (const status of MAIL_STATUSES) {
        messages.set({ status }, 0);
        failed.set({ status }, 0);
      }
      for (const row of rows) {
        messages.set({ status: row.status }, Number(row.count));
        failed.set({ status: row.status }, Number(row.failed));
      }
    },
    clearMail() {
      messages.reset();
      failed.reset();
    },
  };
}

type PoolRead = NonNullable<ReturnType<AppContext['database']['poolStats']>>;
