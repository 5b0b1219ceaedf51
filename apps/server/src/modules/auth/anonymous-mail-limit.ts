import type { FastifyReply } from 'fastify';
import type { SharedLimit } from '../../http/hit-counter';
import { AppError } from '../../http/problem';

export interface MailRefusal {
  retryAfterSeconds: number;
}
export type MayMail = (tenantId: string, email: string) => Promise<MailRefusal | undefined>;

/**
 * One budget per tenant and e-mail address for every mail a request without a session can
 * cause: a reset link (forgot-password), a verification mail (sign-up of a new address) and a
 * warning (sign-up of a taken one). Over the limit the request answers 429, whether or not
 * the address has an account: requests are counted before anyone looks the address up, so a
 * known and an unknown address are limited and answered alike and the 429 reveals nothing.
 */
export function createMayMail(perEmail: Pick<SharedLimit, 'take'>): MayMail {
  return async function mayMail(tenantId, email) {
    return perEmail.take(`${tenantId}\n${email.trim().toLowerCase()}`);
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

const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(
    429,
    `Too many requests for this address. Try again in ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} minute(s).`,
  );
