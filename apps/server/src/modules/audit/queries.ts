import { and, count, eq, or, type AnyColumn, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditPageRequest, AuditSortField } from '@tc/contract/audit';
import type { Page } from '@tc/contract/paging';
import type { Database } from '../../db/database';
import { auditLog } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';

const rowColumns = {
  id: auditLog.id,
  actorId: auditLog.actorId,
  actorEmail: users.email,
  action: auditLog.action,
  entity: auditLog.entity,
  entityId: auditLog.entityId,
  before: auditLog.before,
  after: auditLog.after,
  createdAt: auditLog.createdAt,
};

const sortColumns: Record<AuditSortField, AnyColumn> = {
  createdAt: auditLog.createdAt,
  entity: auditLog.entity,
  action: auditLog.action,
};

/**
 * The actor's e-mail, matched within the tenant as well, so an id can never reveal a user of
 * another tenant; a deleted actor leaves the e-mail null.
 */
function selectRows(db: Database) {
  return db
    .select(rowColumns)
    .from(auditLog)
    .leftJoin(users, and(eq(users.id, auditLog.actorId), eq(users.tenantId, auditLog.tenantId)));
}

function pageWhere(tenantId: string, filter: AuditPageRequest['filter']): SQL | undefined {
  const search = filter.search;
  return and(
    eq(auditLog.tenantId, tenantId),
    search
      ? or(
          containsText(auditLog.entity, search),
          containsText(auditLog.entityId, search),
          containsText(auditLog.action, search),
          containsText(users.email, search),
        )
      : undefined,
    filter.entity ? eq(auditLog.entity, filter.entity) : undefined,
    filter.entityId ? eq(auditLog.entityId, filter.entityId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.actorId ? eq(auditLog.actorId, filter.actorId) : undefined,
  );
}

/**
 * The caller's tenant's audit entries, newest first by default. Sorted by time this is
 * `WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC`, the order of
 * audit_log_tenant_created_idx read backwards.
 */
export async function pageAudit({
  db,
  caller,
  request,
}: Pick<ServiceContext, 'db' | 'caller'> & { request: AuditPageRequest }): Promise<
  Page<AuditEntry>
> {
  const where = pageWhere(caller.tenantId, request.filter);
  const window = pageWindow(request, sortColumns, auditLog.id);
  const [rows, [total]] = await Promise.all([
    selectRows(db)
      .where(where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    // The join is only needed when the search looks at the actor's e-mail.
    request.filter.search
      ? selectCount(db).where(where)
      : db.select({ value: count() }).from(auditLog).where(where),
  ]);
  return toPage(
    request,
    rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    total?.value ?? 0,
  );
}

function selectCount(db: Database) {
  return db
    .select({ value: count() })
    .from(auditLog)
    .leftJoin(users, and(eq(users.id, auditLog.actorId), eq(users.tenantId, auditLog.tenantId)));
}
