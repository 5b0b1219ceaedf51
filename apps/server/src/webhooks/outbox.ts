import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/webhooks';

/** A change as the audit records it (modules/audit's `Change`, repeated to stay below it). */
export interface AuditedChange {
  tenantId: string;
  entity: string;
  action: 'create' | 'update' | 'delete';
  entityId: string;
  before?: unknown;
  after?: unknown;
}

const GROUP_OF_ENTITY: Record<string, string> = {
  users: 'user',
  roles: 'role',
  permissions: 'permission',
  projects: 'project',
  clients: 'client',
};
const PAST_OF_ACTION = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/**
 * The event type of an audited change, or undefined when it has none (tenants, settings,
 * webhooks themselves). Ending a user's sessions is audited as an update of the user that
 * says how many ended: it is `session.revoked`.
 */
export function eventTypeOfChange(change: AuditedChange): string | undefined {
  const group = GROUP_OF_ENTITY[change.entity];
  if (!group) return undefined;
  const after = change.after;
  if (
    group === 'user' &&
    change.action === 'update' &&
    typeof after === 'object' &&
    after !== null &&
    'endedSessions' in after
  ) {
    return 'session.revoked';
  }
  return `${group}.${PAST_OF_ACTION[change.action]}`;
}

// Keys whose values never leave in a webhook, at any depth: the audit keeps none of them
// either, this is the second lock.
const SECRET_KEY = /secret|hash|password|token|otp|credential/i;

/** A copy of an audited state without anything that looks like a secret. */
export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!SECRET_KEY.test(key)) copy[key] = withoutSecrets(inner, depth + 1);
  }
  return copy;
}

/** A Standard Webhooks message id: unique per event, the receiver's idempotency key. */
export const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/** The body of every delivery: `{ type, timestamp, data }`. */
export function eventPayload(type: string, data: Record<string, unknown>, at = new Date()) {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

// Set when a delivery was queued in this process; the app nudges the worker after the answer
// (after the commit), so a delivery leaves at once instead of at the next poll.
let queuedSinceTaken = false;

/** Whether deliveries were queued since the last call (and forget it). */
export function takeQueuedHint(): boolean {
  const queued = queuedSinceTaken;
  queuedSinceTaken = false;
  return queued;
}

/**
 * Queues one delivery per enabled endpoint of the tenant subscribed to `type`, in the caller's
 * transaction (transactional outbox): they exist exactly when the change commits. One
 * statement, so a tenant without webhooks pays one index lookup.
 */
export async function enqueueWebhookEvent(
  tx: Database,
  event: { tenantId: string; type: string; data: Record<string, unknown> },
): Promise<void> {
  const group = event.type.slice(0, event.type.indexOf('.'));
  const wanted = ['*', `${group}.*`, event.type];
  const payload = eventPayload(event.type, event.data);
  const candidates = sql.join(
    wanted.map((w) => sql`${w}`),
    sql`, `,
  );
  const inserted = await tx.execute(sql`
    insert into ${webhookDeliveries} (tenant_id, endpoint_id, message_id, event_type, payload)
    select tenant_id, id, ${newMessageId()}, ${event.type}, ${payload}
      from ${webhookEndpoints}
     where tenant_id = ${event.tenantId} and enabled
       and event_types && array[${candidates}]::text[]
    returning id`);
  if ((inserted as unknown as { rows: unknown[] }).rows.length > 0) queuedSinceTaken = true;
}

/** Queues the webhook event of an audited change, if it has one. */
export async function enqueueChangeEvent(tx: Database, change: AuditedChange): Promise<void> {
  const type = eventTypeOfChange(change);
  if (!type) return;
  await enqueueWebhookEvent(tx, {
    tenantId: change.tenantId,
    type,
    data: {
      id: change.entityId,
      ...(change.after !== undefined ? { after: withoutSecrets(change.after) } : {}),
      ...(change.before !== undefined ? { before: withoutSecrets(change.before) } : {}),
    },
  });
}

/** Says a delivery was queued outside a change (a test event, a resend). */
export function noteQueued(): void {
  queuedSinceTaken = true;
}

/**
 * Queues `login.failed` for a refused password: the account's id and e-mail address when the
 * name is an account's (never the name typed, which may be a password typed in the wrong
 * field), and whether the account was locked. The statement runs whether or not the account
 * exists, so the answer's timing does not tell.
 */
export async function enqueueLoginFailed(
  db: Database,
  failure: { tenantId: string; userId: string | null; email: string | null; locked: boolean },
): Promise<void> {
  await enqueueWebhookEvent(db, {
    tenantId: failure.tenantId,
    type: 'login.failed',
    data: { id: failure.userId, email: failure.email, locked: failure.locked },
  });
}

/**
 * Queues the webhook events of many changes: one lookup first, so a batch whose tenant has no
 * endpoint wanting any of its event types costs one statement, not one per change.
 */
export async function enqueueChangeEvents(
  tx: Database,
  changes: readonly AuditedChange[],
): Promise<void> {
  const tenantId = changes[0]?.tenantId;
  if (tenantId === undefined) return;
  const wanted = new Set<string>(['*']);
  for (const change of changes) {
    const type = eventTypeOfChange(change);
    if (type) wanted.add(type).add(`${type.slice(0, type.indexOf('.'))}.*`);
  }
  if (wanted.size === 1) return;
  const [endpoint] = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      sql`${webhookEndpoints.tenantId} = ${tenantId} and ${webhookEndpoints.enabled}
        and ${webhookEndpoints.eventTypes} && array[${sql.join(
          [...wanted].map((type) => sql`${type}`),
          sql`, `,
        )}]::text[]`,
    )
    .limit(1);
  if (!endpoint) return;
  for (const change of changes) await enqueueChangeEvent(tx, change);
}
