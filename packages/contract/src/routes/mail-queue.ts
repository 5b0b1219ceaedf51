import { mailQueuePageRequestSchema, mailQueuePageResponseSchema } from '../mail-queue';
import { defineRoute } from '../route';

/** Read-only, for super administrators: mail of every tenant that did not leave. */
export const mailQueueRoutes = {
  page: defineRoute({
    method: 'POST',
    path: '/mail-queue/page',
    body: mailQueuePageRequestSchema,
    response: mailQueuePageResponseSchema,
    permission: 'super-admin',
    summary: 'A page of undelivered mail (dead, expired, pending after failures), without bodies',
  }),
};
