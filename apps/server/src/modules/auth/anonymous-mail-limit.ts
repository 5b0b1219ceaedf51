import type { FastifyReply } from 'fastify';
import { tooManyRequests } from './account-throttle';

export interface MailRefusal {
  retryAfterSeconds: number;
}
/** Counts one request under a key; a refusal once the key is over its limit. */
export interface RequestLimit {
  take(key: string): Promise<MailRefusal | undefined> | MailRefusal | undefined;
}
export type MayMail = (tenantId: string, email: string) => Promise<MailRefusal | undefined>;

/**
 * One budget per tenant and e-mail address for every mail a request without a session can
 * cause: a reset link (forgot-password), a verification mail (sign-up of a new address) and a
 * warning (sign-up of a taken one). Over the limit the request answers 429, whether or not
 * the address has an account: requests are counted before anyone looks the address up, so a
 * known and an unknown address are limited and answered alike and the 429 reveals nothing.
 */
export function createMayMail(perEmail: RequestLimit): MayMail {
  return async function mayMail(tenantId, email) {
    return await perEmail.take(`${tenantId}\n${email.trim().toLowerCase()}`);
  };
}

/** Counts the request against the address's budget; a 429 with Retry-After when over. */
export async function requireMailBudget(
  mayMail: MayMail,
  reply: FastifyReply,
  tenantId: string,
  email: string,
): Promise<void> {
  const refused = await mayMail(tenantId, email);
  if (!refused) return;
  reply.header('retry-after', String(refused.retryAfterSeconds));
  throw tooManyRequests(refused.retryAfterSeconds);
}
