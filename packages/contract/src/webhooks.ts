import { z } from 'zod';
import { pageRequestSchema, pageResponseSchema, sortDirectionSchema } from './paging';
import type { SystemPermission } from './permissions';
import { envelope } from './problem';
import { multilineText, singleLineText } from './text';

/**
 * A tenant's webhook endpoints: where changes of its users, roles, permissions, projects and
 * applications (and sign-in events) are sent, signed the Standard Webhooks way. The signing
 * secret is never part of a row: it is answered once, at creation and on rotation.
 */

/** The event types a tenant can subscribe to, `<group>.<what happened>`. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'role.created',
  'role.updated',
  'role.deleted',
  'permission.created',
  'permission.updated',
  'permission.deleted',
  'project.created',
  'project.updated',
  'project.deleted',
  'client.created',
  'client.updated',
  'client.deleted',
  'session.revoked',
  'login.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by "send a test event", whatever the endpoint subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_GROUPS = ['user', 'role', 'permission', 'project', 'client'] as const;

/** What an endpoint may subscribe to: a type, a group's wildcard (`role.*`) or everything. */
export const WEBHOOK_SUBSCRIPTIONS = [
  '*',
  ...WEBHOOK_EVENT_GROUPS.map((group) => `${group}.*` as const),
  ...WEBHOOK_EVENT_TYPES,
] as const;
export type WebhookSubscription = (typeof WEBHOOK_SUBSCRIPTIONS)[number];

/** Whether an endpoint subscribed to `subscriptions` receives events of `type`. */
export function webhookWants(subscriptions: readonly string[], type: string): boolean {
  const group = type.slice(0, type.indexOf('.'));
  return subscriptions.some((s) => s === '*' || s === type || s === `${group}.*`);
}

/**
 * The permission that reads what an event type carries: a delivery hands its receiver the
 * entity, so subscribing to it (and receiving it) needs read access to that entity. Sessions
 * and failed sign-ins carry the user's id and e-mail address.
 */
export const WEBHOOK_EVENT_READ_PERMISSIONS: Record<WebhookEventType, SystemPermission> = {
  'user.created': 'users:read',
  'user.updated': 'users:read',
  'user.deleted': 'users:read',
  'role.created': 'roles:read',
  'role.updated': 'roles:read',
  'role.deleted': 'roles:read',
  'permission.created': 'permissions:read',
  'permission.updated': 'permissions:read',
  'permission.deleted': 'permissions:read',
  'project.created': 'projects:read',
  'project.updated': 'projects:read',
  'project.deleted': 'projects:read',
  'client.created': 'clients:read',
  'client.updated': 'clients:read',
  'client.deleted': 'clients:read',
  'session.revoked': 'users:read',
  'login.failed': 'users:read',
};

/**
 * The permissions a subscription needs: those of every event type it receives (`*` all of
 * them). An unknown type needs nothing here; the schema refuses it. `webhook.test` carries
 * only the endpoint itself and needs none.
 */
export function webhookSubscriptionPermissions(subscription: string): SystemPermission[] {
  const types = WEBHOOK_EVENT_TYPES.filter((type) => webhookWants([subscription], type));
  return [...new Set(types.map((type) => WEBHOOK_EVENT_READ_PERMISSIONS[type]))];
}

/** The subscriptions among `subscriptions` that someone holding `permissions` may not make. */
export function unreadableSubscriptions(
  subscriptions: readonly string[],
  permissions: readonly string[],
): string[] {
  return subscriptions.filter((subscription) =>
    webhookSubscriptionPermissions(subscription).some((needed) => !permissions.includes(needed)),
  );
}

export const MAX_WEBHOOK_URL_LENGTH = 2000;

/**
 * Why a URL cannot be a webhook's target, as a problem code, or undefined when it can (as far
 * as its text tells: the server also refuses addresses it resolves to that are private).
 */
export function webhookUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'webhook.url_invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'webhook.url_scheme';
  if (url.username !== '' || url.password !== '') return 'webhook.url_credentials';
  if (url.hostname === '') return 'webhook.url_invalid';
  return undefined;
}

const urlSchema = singleLineText({ error: 'webhook.url_invalid' })
  .trim()
  .min(1, 'webhook.url_invalid')
  .max(MAX_WEBHOOK_URL_LENGTH, 'text.too_long')
  .superRefine((value, context) => {
    const message = webhookUrlProblem(value);
    if (message) context.addIssue({ code: 'custom', message });
  });

const endpointFields = {
  url: urlSchema,
  description: multilineText().trim().max(500, 'text.too_long').default(''),
  eventTypes: z
    .array(z.enum(WEBHOOK_SUBSCRIPTIONS, 'webhook.event_type_invalid'))
    .min(1, 'webhook.event_types_required')
    .max(WEBHOOK_SUBSCRIPTIONS.length, 'webhook.event_type_invalid')
    .transform((types) => [...new Set(types)]),
  enabled: z.boolean().default(true),
};

export const webhookCreateSchema = z.object(endpointFields).meta({ id: 'WebhookCreate' });
export type WebhookCreate = z.output<typeof webhookCreateSchema>;
export type WebhookCreateInput = z.input<typeof webhookCreateSchema>;

/** Update replaces every field of the form (PUT); the secret stays. */
export const webhookUpdateSchema = z
  .object({ id: z.uuid('id.invalid'), ...endpointFields })
  .meta({ id: 'WebhookUpdate' });
export type WebhookUpdate = z.output<typeof webhookUpdateSchema>;

export const webhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    enabled: z.boolean(),
    /**
     * Who created or last saved the endpoint: deliveries carry only what this user may read
     * (null once that user is deleted: then only test events leave).
     */
    ownerId: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;

/** `whsec_` and the base64 of the key: shown at creation and on rotation, never again. */
export const webhookSecretSchema = z.object({ secret: z.string() }).meta({ id: 'WebhookSecret' });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookWithSecretSchema = webhookSchema
  .extend({ secret: z.string() })
  .meta({ id: 'WebhookWithSecret' });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const WEBHOOK_SORT_FIELDS = ['url', 'createdAt'] as const;

export const webhookPageRequestSchema = pageRequestSchema(
  WEBHOOK_SORT_FIELDS,
  { enabled: z.boolean('field.invalid').optional() },
  'url',
).meta({ id: 'WebhookPageRequest' });
export type WebhookPageRequest = z.output<typeof webhookPageRequestSchema>;

export const webhookPageResponseSchema = pageResponseSchema(webhookSchema).meta({
  id: 'WebhookPage',
});

/**
 * pending (waiting for its first or next attempt), succeeded (2xx), failed (given up) or
 * skipped (not sent: the endpoint's owner may no longer read what it carries).
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'skipped'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    /** The `webhook-id` header: the same for every attempt, and for a resend of it. */
    messageId: z.string(),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    /** The receiver's last HTTP status; null before an answer (or when none came). */
    responseStatus: z.number().int().nullable(),
    /** Why the last attempt failed, when it did: a timeout, a refused address, … */
    lastError: z.string().nullable(),
    /** Skipped: the read permission its event needs, which the endpoint's owner lacked. */
    skippedFor: z.string().nullable(),
    createdAt: z.string(),
    lastAttemptAt: z.string().nullable(),
    /** Pending: when it is tried next. */
    nextAttemptAt: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const WEBHOOK_DELIVERY_SORT_FIELDS = ['createdAt', 'attempts'] as const;

/** Newest first unless asked otherwise. */
export const webhookDeliveryPageRequestSchema = pageRequestSchema(WEBHOOK_DELIVERY_SORT_FIELDS, {
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, 'field.invalid').optional(),
})
  .extend({
    listSort: z
      .object({
        field: z.enum(WEBHOOK_DELIVERY_SORT_FIELDS),
        direction: sortDirectionSchema.default(1),
      })
      .default({ field: 'createdAt', direction: 1 }),
  })
  .meta({ id: 'WebhookDeliveryPageRequest' });
export type WebhookDeliveryPageRequest = z.output<typeof webhookDeliveryPageRequestSchema>;

export const webhookDeliveryPageResponseSchema = pageResponseSchema(webhookDeliverySchema).meta({
  id: 'WebhookDeliveryPage',
});

export const webhookResponseSchema = envelope(webhookSchema);
export const webhookWithSecretResponseSchema = envelope(webhookWithSecretSchema);
export const webhookSecretResponseSchema = envelope(webhookSecretSchema);
export const webhookDeliveryResponseSchema = envelope(webhookDeliverySchema);
