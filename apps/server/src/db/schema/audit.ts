import { sql, type SQL } from 'drizzle-orm';
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
    /** What the list's search looks in besides the actor: lower-cased, one trigram index. */
    search: text().generatedAlwaysAs(
      (): SQL =>
        sql`lower(${auditLog.entity} || E'\\n' || ${auditLog.action} || E'\\n' || ${auditLog.entityId})`,
    ),
  },
  (t) => [
    // The list's orders (read backwards for descending: newest first), for the tenant and for
    // each filter and combination of filters; entity and action sorts go on by time.
    index('audit_log_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('audit_log_tenant_entity_idx').on(t.tenantId, t.entity, t.createdAt, t.id),
    index('audit_log_tenant_action_idx').on(t.tenantId, t.action, t.createdAt, t.id),
    index('audit_log_entity_action_idx').on(t.tenantId, t.entity, t.action, t.createdAt, t.id),
    index('audit_log_action_entity_idx').on(t.tenantId, t.action, t.entity, t.createdAt, t.id),
    index('audit_log_actor_idx').on(t.tenantId, t.actorId, t.createdAt, t.id),
    index('audit_log_actor_entity_idx').on(t.tenantId, t.actorId, t.entity, t.createdAt, t.id),
    index('audit_log_actor_action_idx').on(t.tenantId, t.actorId, t.action, t.createdAt, t.id),
    index('audit_log_actor_entity_action_idx').on(
      t.tenantId,
      t.actorId,
      t.entity,
      t.action,
      t.createdAt,
      t.id,
    ),
    index('audit_log_actor_action_entity_idx').on(
      t.tenantId,
      t.actorId,
      t.action,
      t.entity,
      t.createdAt,
      t.id,
    ),
    // One entity's history: few entries, sorted as they are read.
    index('audit_log_entity_id_idx').on(t.tenantId, t.entityId, t.createdAt, t.id),
    index('audit_log_search_trgm_idx').using('gin', t.search.op('gin_trgm_ops')),
  ],
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
