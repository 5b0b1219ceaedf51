import { bigint, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { tenants } from './tenants';

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    // No foreign key: the history outlives the actor.
    actorId: uuid(),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text().notNull(),
    before: jsonb(),
    after: jsonb(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_tenant_created_idx').on(t.tenantId, t.createdAt, t.id)],
);

/** Change events kept briefly so a reconnecting console can catch up (SSE Last-Event-ID). */
export const events = pgTable(
  'events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    entity: text().notNull(),
    action: text().notNull(),
    entityId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_tenant_id_idx').on(t.tenantId, t.id)],
);
