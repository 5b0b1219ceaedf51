import { bigint, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    // The order of all tenants' changes: never shown, it moves with every tenant's activity.
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // What a client sees and resumes from: random, so it tells nothing of other tenants.
    publicId: uuid().notNull().defaultRandom(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    entity: text().notNull(),
    action: text().notNull(),
    entityId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_tenant_id_idx').on(t.tenantId, t.id),
    uniqueIndex('events_tenant_public_id_key').on(t.tenantId, t.publicId),
  ],
);
