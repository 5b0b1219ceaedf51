import { z } from 'zod';
import { pageRequestSchema, pageResponseSchema, sortDirectionSchema } from './paging';

/**
 * The mail that did not leave, as the super administrator sees it: `dead` (refused
 * MAIL_MAX_ATTEMPTS times), `expired` (its link ended before it could be sent) and `pending`
 * after at least one failed attempt. Never a body: bodies carry link tokens.
 */
export const MAIL_QUEUE_STATUSES = ['dead', 'expired', 'pending'] as const;
export type MailQueueStatus = (typeof MAIL_QUEUE_STATUSES)[number];

export const mailQueueEntrySchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    tenantName: z.string(),
    toAddress: z.string(),
    subject: z.string(),
    status: z.enum(MAIL_QUEUE_STATUSES),
    attempts: z.number().int(),
    /** The SMTP server's last refusal, credentials and link tokens masked. */
    lastError: z.string().nullable(),
    createdAt: z.string(),
    /** Pending: when it is tried again. */
    nextAttemptAt: z.string(),
  })
  .meta({ id: 'MailQueueEntry' });
export type MailQueueEntry = z.infer<typeof mailQueueEntrySchema>;

export const MAIL_QUEUE_SORT_FIELDS = ['createdAt', 'attempts', 'toAddress'] as const;

/** Newest first unless the client asks otherwise. */
export const mailQueuePageRequestSchema = pageRequestSchema(MAIL_QUEUE_SORT_FIELDS, {
  status: z.enum(MAIL_QUEUE_STATUSES, 'field.invalid').optional(),
})
  .extend({
    listSort: z
      .object({
        field: z.enum(MAIL_QUEUE_SORT_FIELDS),
        direction: sortDirectionSchema.default(1),
      })
      .default({ field: 'createdAt', direction: 1 }),
  })
  .meta({ id: 'MailQueuePageRequest' });
export type MailQueuePageRequest = z.infer<typeof mailQueuePageRequestSchema>;

export const mailQueuePageResponseSchema = pageResponseSchema(mailQueueEntrySchema).meta({
  id: 'MailQueuePage',
});
