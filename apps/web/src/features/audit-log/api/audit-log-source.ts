import type { AuditEntry, AuditPageRequest } from '@tc/contract/audit';
import type { PageRequest } from '@tc/contract/paging';
import { auditRoutes } from '@tc/contract/routes/audit';
import type { ListSource } from '../../../components/entity-list/list-page';
import { callRoute } from '../../../lib/api';

/** The first part of the audit list's query keys, where the drawer finds a clicked row. */
export const AUDIT_LIST_NAME = 'audit-log';

/**
 * The tenant's audit log, for the shared list page: newest first, as the server orders it
 * unless asked otherwise. Read-only: entries are written by the changes themselves.
 */
export const auditLogSource: ListSource<AuditEntry> = {
  name: AUDIT_LIST_NAME,
  defaultSort: { field: 'createdAt', direction: 1 },
  fetchPage: (request: PageRequest, signal?: AbortSignal) =>
    callRoute(auditRoutes.page, { body: request as AuditPageRequest, signal }),
};
