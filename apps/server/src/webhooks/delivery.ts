import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../db/database';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/webhooks';
import type { SecretBox } from '../identity/second-factor/secret-box';
import { RefusedAddressError, UnresolvedHostError } from './address-guard';
import { permissionOwnerLacks, type DeliveryOwnership } from './owner-access';
import { SendTimeoutError, sendSigned } from './sender';
import { openSecret } from './secret';

/** The log methods the worker uses (Fastify's pino logger fits). */
export interface WebhookLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** How deliveries are retried; injectable so tests need not wait a day. */
export interface RetryPolicy {
  /** The first retry's delay; each next one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** After this long since the first attempt a delivery that never got a 2xx is `failed`. */
  windowMs: number;
  /** Per attempt, until the whole answer is in. */
  timeoutMs: number;
  /** 0 ≤ n < 1, for the jitter (Math.random). */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 5_000,
  maxDelayMs: 60 * 60_000,
  windowMs: 24 * 60 * 60_000,
  timeoutMs: 10_000,
  random: Math.random,
};

/**
 * Exponential back-off with "equal jitter": half the doubled delay for sure, the other half at
 * random, so receivers that came back are not hit by every sender at the same instant.
 */
export function retryDelayMs(attempts: number, policy: RetryPolicy): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(30, attempts - 1));
  return Math.round(full / 2 + (full / 2) * policy.random());
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery extends DeliveryOwnership {
  id: string;
  endpointId: string;
  messageId: string;
  payload: string;
  attempts: number;
  firstAttemptAt: Date;
  url: string;
  secretSealed: string;
}

/** Why an attempt failed, as kept in `last_error`: never the URL (it may carry a token). */
function describe(error: unknown): string {
  if (error instanceof SendTimeoutError) return error.message;
  if (error instanceof RefusedAddressError) return 'the address is not allowed (private network)';
  if (error instanceof UnresolvedHostError) return 'the host name does not resolve';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return `connection failed (${code})`;
  return 'connection failed';
}

/**
 * Skips a delivery whose endpoint's owner may not read what it carries (now: the owner's
 * current permissions), recorded with the permission lacked. Answers whether it did.
 */
async function skippedForOwner(deps: DeliveryDeps, row: ClaimedDelivery): Promise<boolean> {
  const lacked = await permissionOwnerLacks(deps.db, row);
  if (lacked === null) return false;
  deps.log.info(
    { deliveryId: row.id, endpointId: row.endpointId, lacked },
    'webhook delivery skipped: the endpoint’s owner may not read its event',
  );
  await deps.db
    .update(webhookDeliveries)
    .set({
      status: 'skipped',
      skippedFor: lacked,
      responseStatus: null,
      lastError: `not sent: the endpoint's owner does not hold ${lacked}`,
    })
    .where(eq(webhookDeliveries.id, row.id));
  return true;
}

export interface DeliveryDeps {
  db: Database;
  log: WebhookLog;
  secrets: SecretBox;
  allowPrivate: boolean;
  policy: RetryPolicy;
}

/**
 * One attempt: sign, send, record. A 2xx is success; anything else (another status, a
 * timeout, no connection, a refused address) is retried later, until the window since the
 * first attempt is over; its last attempt falls on the window's end. 410 Gone says the
 * receiver is gone for good: the delivery fails and the endpoint is disabled.
 */
export async function attemptDelivery(deps: DeliveryDeps, row: ClaimedDelivery): Promise<void> {
  const { db, log, policy } = deps;
  if (await skippedForOwner(deps, row)) return;
  const secret = openSecret(deps.secrets, row.secretSealed, row.endpointId);
  let status: number | null = null;
  let failure: string | null = null;
  if (secret === undefined) {
    failure = 'the signing secret cannot be read with this server’s key';
  } else {
    const now = new Date();
    const headers = {
      'webhook-id': row.messageId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(row.messageId, now, row.payload),
    };
    try {
      const sendOptions = { timeoutMs: policy.timeoutMs, allowPrivate: deps.allowPrivate };
      status = (await sendSigned(row.url, headers, row.payload, sendOptions)).status;
      if (status < 200 || status > 299) failure = `answered HTTP ${status}`;
    } catch (error) {
      failure = describe(error);
    }
  }
  if (failure === null) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'succeeded', responseStatus: status, lastError: null })
      .where(eq(webhookDeliveries.id, row.id));
    return;
  }
  const windowEnd = row.firstAttemptAt.getTime() + policy.windowMs;
  const gone = status === 410;
  if (gone || Date.now() >= windowEnd) {
    log.warn(
      { deliveryId: row.id, endpointId: row.endpointId, attempts: row.attempts, failure },
      gone ? 'webhook receiver is gone (410); endpoint disabled' : 'webhook delivery failed',
    );
    await db
      .update(webhookDeliveries)
      .set({ status: 'failed', responseStatus: status, lastError: failure })
      .where(eq(webhookDeliveries.id, row.id));
    if (gone) {
      await db
        .update(webhookEndpoints)
        .set({ enabled: false, updatedAt: new Date() })
        .where(eq(webhookEndpoints.id, row.endpointId));
    }
    return;
  }
  const at = Math.min(Date.now() + retryDelayMs(row.attempts, policy), windowEnd);
  const delayMs = Math.max(0, at - Date.now());
  log.info(
    { deliveryId: row.id, endpointId: row.endpointId, attempts: row.attempts, failure, delayMs },
    'webhook delivery will be retried',
  );
  await db
    .update(webhookDeliveries)
    .set({
      responseStatus: status,
      lastError: failure,
      nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
    })
    .where(eq(webhookDeliveries.id, row.id));
}
