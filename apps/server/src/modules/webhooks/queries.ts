import { and, count, eq, or } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPageRequest,
  WebhookDeliveryStatus,
  WebhookPageRequest,
} from '@tc/contract/webhooks';
import type { Database } from '../../db/database';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/webhooks';
import { cappedCountQuery, cappedTotal, containsText, pageWindow, toPage } from '../../http/paging';
import { notFound } from '../../http/problem';

/** The columns of a row as the API shows it: never the sealed secret. */
const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  eventTypes: webhookEndpoints.eventTypes,
  enabled: webhookEndpoints.enabled,
  ownerId: webhookEndpoints.ownerId,
  createdAt: webhookEndpoints.createdAt,
  updatedAt: webhookEndpoints.updatedAt,
};

type EndpointRow = Pick<typeof webhookEndpoints.$inferSelect, keyof typeof endpointColumns>;

const toWebhook = (row: EndpointRow): Webhook => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The tenant's endpoint; another tenant's answers 404 exactly like a missing one. */
export async function findWebhook(
  db: Database,
  tenantId: string,
  id: string,
  forUpdate = false,
): Promise<Webhook> {
  const query = db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)));
  const [row] = await (forUpdate ? query.for('update') : query);
  if (!row) throw notFound('webhook.not_found');
  return toWebhook(row);
}

const endpointSorts = { url: webhookEndpoints.url, createdAt: webhookEndpoints.createdAt };

/** A page of the tenant's endpoints (a handful per tenant: counted exactly). */
export async function pageWebhooks(
  db: Database,
  tenantId: string,
  request: WebhookPageRequest,
): Promise<Page<Webhook>> {
  const { search, enabled } = request.filter;
  const where = and(
    eq(webhookEndpoints.tenantId, tenantId),
    enabled === undefined ? undefined : eq(webhookEndpoints.enabled, enabled),
    search
      ? or(
          containsText(webhookEndpoints.url, search),
          containsText(webhookEndpoints.description, search),
        )
      : undefined,
  );
  const window = pageWindow(request, endpointSorts, webhookEndpoints.id);
  const [rows, [counted]] = await Promise.all([
    db
      .select(endpointColumns)
      .from(webhookEndpoints)
      .where(where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(webhookEndpoints).where(where),
  ]);
  return toPage(request, rows.map(toWebhook), counted?.value ?? 0);
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  endpointId: webhookDeliveries.endpointId,
  messageId: webhookDeliveries.messageId,
  eventType: webhookDeliveries.eventType,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  responseStatus: webhookDeliveries.responseStatus,
  lastError: webhookDeliveries.lastError,
  skippedFor: webhookDeliveries.skippedFor,
  createdAt: webhookDeliveries.createdAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
};

type DeliveryRow = Omit<
  typeof webhookDeliveries.$inferSelect,
  'tenantId' | 'payload' | 'firstAttemptAt'
>;

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  ...row,
  status: row.status as WebhookDeliveryStatus,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
});

export async function findDelivery(db: Database, tenantId: string, endpointId: string, id: string) {
  const [row] = await db
    .select({ ...deliveryColumns, payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, id),
      ),
    );
  if (!row) throw notFound('webhook.delivery_not_found');
  return row;
}

const deliverySorts = {
  createdAt: webhookDeliveries.createdAt,
  attempts: webhookDeliveries.attempts,
};

/** A page of one endpoint's deliveries, newest first by default; never a body. */
export async function pageDeliveries(
  db: Database,
  tenantId: string,
  endpointId: string,
  request: WebhookDeliveryPageRequest,
): Promise<Page<WebhookDelivery>> {
  const { search, status } = request.filter;
  const where = and(
    eq(webhookDeliveries.tenantId, tenantId),
    eq(webhookDeliveries.endpointId, endpointId),
    status ? eq(webhookDeliveries.status, status) : undefined,
    search ? containsText(webhookDeliveries.eventType, search) : undefined,
  );
  const window = pageWindow(request, deliverySorts, webhookDeliveries.id);
  const [rows, [counted]] = await Promise.all([
    db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .where(where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    cappedCountQuery(db, webhookDeliveries, where),
  ]);
  return toPage(request, rows.map(toDelivery), cappedTotal(counted?.value ?? 0));
}

/** A delivery just inserted, as the API shows it. */
export async function insertDelivery(
  tx: Database,
  values: typeof webhookDeliveries.$inferInsert,
): Promise<WebhookDelivery> {
  const [row] = await tx.insert(webhookDeliveries).values(values).returning(deliveryColumns);
  return toDelivery(row!);
}
