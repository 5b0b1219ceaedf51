import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type {
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookSecret,
  WebhookUpdate,
  WebhookWithSecret,
} from '@tc/contract/webhooks';
import { unreadableSubscriptions, WEBHOOK_TEST_EVENT } from '@tc/contract/webhooks';
import type { Database } from '../../db/database';
import { webhookEndpoints } from '../../db/schema/webhooks';
import type { ServiceContext } from '../../http/crud-routes';
import { AppError, badRequest } from '../../http/problem';
import type { SecretBox } from '../../identity/second-factor/secret-box';
import { RefusedAddressError, vetHost } from '../../webhooks/address-guard';
import { eventPayload, newMessageId, noteQueued } from '../../webhooks/outbox';
import { newWebhookSecret, sealSecret } from '../../webhooks/secret';
import { recordChange, type ChangeAction } from '../audit';
import { findDelivery, findWebhook, insertDelivery } from './queries';

export const ENTITY = 'webhooks';

export interface WebhookServiceContext extends ServiceContext {
  secrets: SecretBox;
}

/** Audited in the change's transaction; the rows never hold the secret. */
function audit(
  tx: Database,
  { caller }: ServiceContext,
  action: ChangeAction,
  entityId: string,
  change: { before?: Webhook; after?: Webhook & { secretRotated?: true } },
) {
  return recordChange(tx, {
    tenantId: caller.tenantId,
    actorId: caller.userId,
    entity: ENTITY,
    action,
    entityId,
    ...change,
  });
}

/**
 * Refuses a URL whose host resolves to a private, loopback or link-local address (unless
 * WEBHOOK_ALLOW_PRIVATE). A host that does not resolve yet is accepted: deliveries check again
 * before every connection, so saving it grants nothing.
 */
async function checkTarget({ config }: ServiceContext, url: string): Promise<void> {
  try {
    await vetHost(new URL(url).hostname, config.webhooks.allowPrivate);
  } catch (error) {
    if (error instanceof RefusedAddressError) {
      throw badRequest('webhook.url_private', undefined, { url: 'webhook.url_private' });
    }
  }
}

/**
 * Refuses subscriptions whose events carry what the caller may not read (403 naming them, on
 * the field): a webhook must not show its receiver what the API would not show its author.
 */
function checkReadable({ caller }: ServiceContext, eventTypes: readonly string[]): void {
  const refused = unreadableSubscriptions(eventTypes, caller.permissions);
  if (refused.length === 0) return;
  const params = { eventTypes: refused.join(', ') };
  const code = 'webhook.event_types_forbidden';
  throw new AppError(403, code, params, { eventTypes: { code, params } });
}

/** The saved fields; whoever saves them becomes the owner, whose permissions deliveries keep. */
const columnsOf = ({ caller }: ServiceContext, data: WebhookCreate) => ({
  url: data.url,
  description: data.description,
  eventTypes: data.eventTypes,
  enabled: data.enabled,
  ownerId: caller.userId,
});

export async function createWebhook(
  context: WebhookServiceContext & { data: WebhookCreate },
): Promise<WebhookWithSecret> {
  const { db, caller, data, secrets } = context;
  checkReadable(context, data.eventTypes);
  await checkTarget(context, data.url);
  const id = randomUUID();
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    await tx.insert(webhookEndpoints).values({
      id,
      tenantId: caller.tenantId,
      ...columnsOf(context, data),
      secretSealed: sealSecret(secrets, secret, id),
    });
    const row = await findWebhook(tx, caller.tenantId, id);
    await audit(tx, context, 'create', id, { after: row });
    return { ...row, secret };
  });
}

export async function updateWebhook(
  context: ServiceContext & { data: WebhookUpdate },
): Promise<Webhook> {
  const { db, caller, data } = context;
  checkReadable(context, data.eventTypes);
  await checkTarget(context, data.url);
  return db.transaction(async (tx) => {
    const before = await findWebhook(tx, caller.tenantId, data.id, true);
    await tx
      .update(webhookEndpoints)
      .set({ ...columnsOf(context, data), updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, data.id));
    const row = await findWebhook(tx, caller.tenantId, data.id);
    await audit(tx, context, 'update', row.id, { before, after: row });
    return row;
  });
}

/** Its deliveries, sent or not, go with it. */
export async function removeWebhook(context: ServiceContext & { id: string }): Promise<void> {
  const { db, caller, id } = context;
  await db.transaction(async (tx) => {
    const before = await findWebhook(tx, caller.tenantId, id, true);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    await audit(tx, context, 'delete', id, { before });
  });
}

/** A new secret, answered once; deliveries sign with it from their next attempt on. */
export async function rotateWebhookSecret(
  context: WebhookServiceContext & { id: string },
): Promise<WebhookSecret> {
  const { db, caller, id, secrets } = context;
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    const before = await findWebhook(tx, caller.tenantId, id, true);
    await tx
      .update(webhookEndpoints)
      .set({ secretSealed: sealSecret(secrets, secret, id), updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, id));
    const row = await findWebhook(tx, caller.tenantId, id);
    await audit(tx, context, 'update', id, { before, after: { ...row, secretRotated: true } });
    return { secret };
  });
}

/**
 * Sends a delivery again as a new delivery of the same message: same body and `webhook-id`
 * (receivers deduplicate on it), fresh attempts and retry window. The old one stays in the log.
 * It leaves only if the endpoint's owner may still read it, as every delivery.
 */
export async function resendDelivery(
  context: ServiceContext & { id: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const { db, caller, id, deliveryId } = context;
  await findWebhook(db, caller.tenantId, id);
  const original = await findDelivery(db, caller.tenantId, id, deliveryId);
  // Sending it again sends its entity again: the same read access as subscribing to it.
  if (original.eventType !== WEBHOOK_TEST_EVENT) checkReadable(context, [original.eventType]);
  const delivery = await insertDelivery(db, {
    tenantId: caller.tenantId,
    endpointId: id,
    messageId: original.messageId,
    eventType: original.eventType,
    payload: original.payload,
  });
  noteQueued();
  return delivery;
}

/** A `webhook.test` event for this endpoint only, whether it is enabled or not. */
export async function sendTestEvent(
  context: ServiceContext & { id: string },
): Promise<WebhookDelivery> {
  const { db, caller, id } = context;
  const endpoint = await findWebhook(db, caller.tenantId, id);
  const delivery = await insertDelivery(db, {
    tenantId: caller.tenantId,
    endpointId: id,
    messageId: newMessageId(),
    eventType: WEBHOOK_TEST_EVENT,
    payload: eventPayload(WEBHOOK_TEST_EVENT, { id: endpoint.id, url: endpoint.url }),
  });
  noteQueued();
  return delivery;
}
