import type { MailQueueEntry, MailQueuePageRequest } from '@tc/contract/mail-queue';
import type { PageRequest } from '@tc/contract/paging';
import { mailQueueRoutes } from '@tc/contract/routes/mail-queue';
import type { ListSource } from '../../../components/entity-list/list-page';
import { callRoute } from '../../../lib/api';

/**
 * The undelivered mail of every tenant, for the shared list page: newest first, as the server
 * orders it unless asked otherwise. Read-only: the queue is the mail worker's to change.
 */
export const mailQueueSource: ListSource<MailQueueEntry> = {
  name: 'mail-queue',
  defaultSort: { field: 'createdAt', direction: 1 },
  fetchPage: (request: PageRequest, signal?: AbortSignal) =>
    callRoute(mailQueueRoutes.page, { body: request as MailQueuePageRequest, signal }),
};
