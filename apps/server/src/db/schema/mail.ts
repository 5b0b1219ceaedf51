import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { tenants } from './tenants';

/**
 * Transactional outbox: a message is written in the same transaction as the change that
 * causes it, then delivered (SMTP) or kept (no SMTP_URL) by the mail worker, with retries.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    toAddress: text().notNull(),
    locale: text().notNull(),
    subject: text().notNull(),
    textBody: text().notNull(),
    htmlBody: text().notNull(),
    // pending → sent (SMTP accepted it), kept (no SMTP configured: stays readable here),
    // dead (refused MAIL_MAX_ATTEMPTS times) or expired (its link ended before it left).
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
    // When the single-use link in the body stops working: the body is blanked then, so the
    // table never holds a raw token longer than the token could be used. Null: no link, or
    // already blanked.
    linkExpiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_status_created_idx').on(t.status, t.createdAt),
    index('mail_outbox_link_expiry_idx')
      .on(t.linkExpiresAt)
      .where(sql`${t.linkExpiresAt} is not null`),
  ],
);
