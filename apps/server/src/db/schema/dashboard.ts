import { date, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/**
 * Sign-ins per tenant and UTC day, for the dashboard's chart. Counted by a
 * trigger on every new session (migration 0005): a session is one sign-in (password grant or
 * Google), and sessions go when their user does, so the history is kept here instead.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    day: date().notNull(),
    count: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);
