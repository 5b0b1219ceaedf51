import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { clients } from './clients';
import { users } from './identity';
import { tenants } from './tenants';

/**
 * What a user allowed an application that is not first-party: the scopes allowed so far and
 * when. A request within them signs in without asking; one beyond them asks again. Withdrawn
 * from the account page (the row goes, and the application's tokens with it).
 */
export const applicationConsents = pgTable(
  'application_consents',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The application's row id (not its OAuth client_id, which a tenant may change). */
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    scopes: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'application_consents_pkey', columns: [t.userId, t.clientId] }),
    index('application_consents_tenant_user_idx').on(t.tenantId, t.userId),
    index('application_consents_client_idx').on(t.clientId),
  ],
);
