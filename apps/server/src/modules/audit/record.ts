import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { auditLog, events } from '../../db/schema/audit';
import { enqueueChangeEvent, enqueueChangeEvents } from '../../webhooks/outbox';

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

const auditRow = (change: Change) => ({
  tenantId: change.tenantId,
  actorId: change.actorId,
  action: change.action,
  entity: change.entity,
  entityId: change.entityId,
  before: change.before ?? null,
  after: change.after ?? null,
});

/** What a console hears of a change: kept for Last-Event-ID catch-up, NOTIFY on commit. */
type ChangeEvent = Pick<Change, 'tenantId' | 'entity' | 'action' | 'entityId'>;

async function publishEvent(tx: Database, change: ChangeEvent): Promise<void> {
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
}

/**
 * Writes the audit entry, the change event and the webhook deliveries it causes in the
 * caller's transaction, so they exist exactly when the change does; NOTIFY is delivered to
 * listeners only on commit.
 */
export async function recordChange(tx: Database, change: Change): Promise<void> {
  await tx.insert(auditLog).values(auditRow(change));
  await publishEvent(tx, change);
  await enqueueChangeEvent(tx, change);
}

/**
 * A batch of changes made together (an import's batch of users): every audit entry and webhook
 * delivery exactly as `recordChange` writes them, in a few statements instead of a few per
 * change, and ONE change event for the batch, `batch`: consoles refresh once per batch, not
 * once per row.
 */
export async function recordChanges(
  tx: Database,
  changes: readonly Change[],
  batch: ChangeEvent,
): Promise<void> {
  if (changes.length === 0) return;
  await tx.insert(auditLog).values(changes.map(auditRow));
  await publishEvent(tx, batch);
  await enqueueChangeEvents(tx, changes);
}
