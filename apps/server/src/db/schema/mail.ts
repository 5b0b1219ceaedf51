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
    // pending → sent (SMTP accepted it) or kept (no SMTP configured: stays readable here).
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);
