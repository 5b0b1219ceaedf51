import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events } from '../../db/schema/audit';
import { webhookEndpoints } from '../../db/schema/webhooks';
import { enqueueChangeEvent } from '../../webhooks/outbox';
import { EVENTS_CHANNEL } from '../audit';

/**
 * What recordChange does for one change, done for a batch of created users at the cost of a
 * few statements instead of four or five per user (docs/decisions/0016-user-import.md):
 *
 * - one audit entry per user, the same row recordChange writes, inserted in one statement;
 * - one change event and NOTIFY per batch (entity `users`), which refreshes every console's
 *   users lists and the import's progress once per batch instead of once per user;
 * - the `user.created` webhook of each user, exactly as recordChange queues it, but only when
 *   the tenant has an enabled endpoint that wants it (one lookup per batch otherwise).
 */

export interface CreatedUserChange {
  userId: string;
  after: Record<string, unknown>;
}

const WANTED_TYPES = sql`array['*', 'user.*', 'user.created']::text[]`;

async function wantsUserCreated(tx: Database, tenantId: string): Promise<boolean> {
  const [endpoint] = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.tenantId, tenantId),
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.eventTypes} && ${WANTED_TYPES}`,
      ),
    )
    .limit(1);
  return endpoint !== undefined;
}

export async function recordCreatedUsers(
  tx: Database,
  input: { tenantId: string; actorId: string; importId: string; users: CreatedUserChange[] },
): Promise<void> {
  if (input.users.length === 0) return;
  const entries = input.users.map((user) => ({ entityId: user.userId, after: user.after }));
  await tx.execute(sql`
    insert into audit_log (tenant_id, actor_id, action, entity, entity_id, after)
    select ${input.tenantId}, ${input.actorId}, 'create', 'users', v."entityId", v.after
    from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as v("entityId" text, after jsonb)`);

  const [event] = await tx
    .insert(events)
    .values({
      tenantId: input.tenantId,
      entity: 'users',
      action: 'create',
      entityId: input.importId,
    })
    .returning({ id: events.id, publicId: events.publicId });
  const payload = JSON.stringify({
    id: event!.id,
    publicId: event!.publicId,
    tenantId: input.tenantId,
    entity: 'users',
    action: 'create',
    entityId: input.importId,
  });
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${payload})`);

  if (!(await wantsUserCreated(tx, input.tenantId))) return;
  for (const user of input.users) {
    await enqueueChangeEvent(tx, {
      tenantId: input.tenantId,
      entity: 'users',
      action: 'create',
      entityId: user.userId,
      after: user.after,
    });
  }
}
