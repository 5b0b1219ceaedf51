import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/problem';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant a request without a session named (sign-up, reset): its budgets' tenant. */
    identifiedTenantId: string | undefined;
  }
}

/**
 * One budget per tenant and e-mail address for every mail a request without a session can
 * cause: a reset link (forgot-password), a verification mail (sign-up of a new address) and a
 * warning (sign-up of a taken one). Over the limit the request answers 429, whether or not
 * the address has an account: requests are counted before anyone looks the address up, so a
 * known and an unknown address are limited and answered alike and the 429 reveals nothing.
 *
 * @fastify/rate-limit (registered on `app` with the shared store) does the counting. A route
 * runs only one of the plugin's hooks, and these routes already have the per-client one, so
 * this limit is checked with the plugin's `createRateLimit` once the tenant is known.
 */
export function mailBudget(app: FastifyInstance, max = 3, timeWindow = 15 * 60_000) {
  const check = app.createRateLimit({ max, timeWindow, keyGenerator: mailKey });
  if (!app.hasRequestDecorator('identifiedTenantId')) {
    app.decorateRequest('identifiedTenantId', undefined);
  }

  /** Counts the request against the address's budget; a 429 with Retry-After when over. */
  return async function requireMailBudget(request: FastifyRequest, reply: FastifyReply) {
    const limit = await check(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    const retryAfterSeconds = Math.max(1, limit.ttlInSeconds);
    reply.header('retry-after', String(retryAfterSeconds));
    throw tooManyRequests(retryAfterSeconds);
  };
}

/** The tenant and the normalised address from the body, hashed: no address is kept in clear. */
function mailKey(request: FastifyRequest): string {
  const tenantId = request.identifiedTenantId;
  const { email } = request.body as { email: string };
  if (!tenantId) throw new Error('the mail budget needs the tenant first');
  const key = `${tenantId}\n${email.trim().toLowerCase()}`;
  return `mail-per-address:${createHash('sha256').update(key).digest('base64url')}`;
}

const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'account.mail_too_many', {
    count: Math.max(1, Math.ceil(retryAfterSeconds / 60)),
  });
