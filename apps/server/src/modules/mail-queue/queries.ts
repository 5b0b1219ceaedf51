import { and, eq, gt, inArray, isNotNull, or, type SQL } from 'drizzle-orm';
import type {
  MailQueueEntry,
  MailQueuePageRequest,
  MailQueueStatus,
} from '@tc/contract/mail-queue';
import type { Page } from '@tc/contract/paging';
import type { Database } from '../../db/database';
import { mailOutbox } from '../../db/schema/mail';
import { tenants } from '../../db/schema/tenants';
import { cappedCountQuery, cappedTotal, containsText, pageWindow, toPage } from '../../http/paging';

/** Mail that did not leave: given up, too late for its link, or pending after a failure. */
function undelivered(status: MailQueueStatus | undefined): SQL {
  const failedPending = and(
    eq(mailOutbox.status, 'pending'),
    gt(mailOutbox.attempts, 0),
    isNotNull(mailOutbox.lastError),
  )!;
  if (status === 'pending') return failedPending;
  if (status) return eq(mailOutbox.status, status);
  return or(inArray(mailOutbox.status, ['dead', 'expired']), failedPending)!;
}

const sortColumns = {
  createdAt: mailOutbox.createdAt,
  attempts: mailOutbox.attempts,
  toAddress: mailOutbox.toAddress,
};

/**
 * A page of every tenant's undelivered mail, for the super administrator. The columns are
 * chosen one by one: a body (and its link token) is never read here.
 */
export async function pageMailQueue(
  db: Database,
  request: MailQueuePageRequest,
): Promise<Page<MailQueueEntry>> {
  const search = request.filter.search;
  const where = and(
    undelivered(request.filter.status),
    search
      ? or(containsText(mailOutbox.toAddress, search), containsText(mailOutbox.subject, search))
      : undefined,
  );
  const window = pageWindow(request, sortColumns, mailOutbox.id);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: mailOutbox.id,
        tenantId: mailOutbox.tenantId,
        tenantName: tenants.name,
        toAddress: mailOutbox.toAddress,
        subject: mailOutbox.subject,
        status: mailOutbox.status,
        attempts: mailOutbox.attempts,
        lastError: mailOutbox.lastError,
        createdAt: mailOutbox.createdAt,
        nextAttemptAt: mailOutbox.nextAttemptAt,
      })
      .from(mailOutbox)
      .innerJoin(tenants, eq(tenants.id, mailOutbox.tenantId))
      .where(where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    cappedCountQuery(db, mailOutbox, where),
  ]);
  const entries = rows.map((row) => ({
    ...row,
    status: row.status as MailQueueStatus,
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  }));
  return toPage(request, entries, cappedTotal(counted?.value ?? 0));
}
