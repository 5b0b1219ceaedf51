import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { users } from './identity';
import { tenants } from './tenants';

/**
 * A tenant's webhook endpoints. The signing secret is kept sealed (AES-GCM with the server's
 * second-factor key, bound to the endpoint's id): signing needs the key itself, so a digest
 * would not do, and a copy of the table alone does not give it away.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    description: text().notNull().default(''),
    // Subscriptions: event types, group wildcards (`role.*`) or `*`.
    eventTypes: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    enabled: boolean().notNull().default(true),
    secretSealed: text().notNull(),
    // Who created or last saved it: deliveries carry only what this user may read.
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_tenant_url_idx').on(t.tenantId, t.url, t.id)],
);

/**
 * The delivery outbox: one row per event and endpoint, written in the transaction of the change
 * that caused it, then sent by the webhook worker with retries. The body is kept as the exact
 * text that is signed, so every attempt (and a resend) sends the same bytes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    endpointId: uuid()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    // The `webhook-id` header: one per event, kept by a resend so receivers can deduplicate.
    messageId: text().notNull(),
    eventType: text().notNull(),
    payload: text().notNull(),
    // pending → succeeded (a 2xx), failed (no 2xx within the retry window) or skipped (the
    // endpoint's owner may not read what it carries).
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    responseStatus: integer(),
    lastError: text(),
    // Skipped: the read permission the event needed, which the endpoint's owner lacked.
    skippedFor: text(),
    createdAt: createdAt(),
    firstAttemptAt: timestamp({ withTimezone: true }),
    lastAttemptAt: timestamp({ withTimezone: true }),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);
