import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { auditLog, events } from '../../db/schema/audit';
import { enqueueChangeEvent } from '../../webhooks/outbox';

/**
 * The channel every process on one database listens on, so a change made in one reaches the
 * consoles connected to any other; the payload names the tenant.
 */
export const EVENTS_CHANNEL = 'tc_events';

export type ChangeAction = 'create' | 'update' | 'delete';

export interface Change {
  tenantId: string;
  actorId: string | null;
  entity: string;
  action: ChangeAction;
  entityId: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Writes the audit entry, the change event and the webhook deliveries it causes in the
 * caller's transaction, so they exist exactly when the change does; NOTIFY is delivered to
 * listeners only on commit.
 */
export async function recordChange(tx: Database, change: Change): Promise<void> {
  await tx.insert(auditLog).values({
    tenantId: change.tenantId,
    actorId: change.actorId,
    action: change.action,
    entity: change.entity,
    entityId: change.entityId,
    before: change.before ?? null,
    after: change.after ?? null,
  });
  const [event] = await tx
    .insert(events)
    .values({
      tenantId: change.tenantId,
      entity: change.entity,
      action: change.action,
      entityId: change.entityId,
    })
    .returning({ id: events.id, publicId: events.publicId });
  const payload = JSON.stringify({
    id: event!.id,
    publicId: event!.publicId,
    tenantId: change.tenantId,
    entity: change.entity,
    action: change.action,
    entityId: change.entityId,
  });
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${payload})`);
  await enqueueChangeEvent(tx, change);
}
