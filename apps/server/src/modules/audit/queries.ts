import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuditEntry, AuditPageRequest, AuditSortField } from '@tc/contract/audit';
import type { Page } from '@tc/contract/paging';
import type { Database } from '../../db/database';
import { auditLog } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import { cappedCountQuery, cappedTotal, COUNT_CAP, escapeLike, toPage } from '../../http/paging';

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

/**
 * The order of each sort: its column, then the time and the id, so entries of one entity or
 * action stay in time order and equal values never swap places between pages. Each is the
 * order of an index of migration 0016 (read backwards for descending), for the tenant and for
 * each filter.
 */
const sortKeys: Record<AuditSortField, PgColumn[]> = {
  createdAt: [auditLog.createdAt, auditLog.id],
  entity: [auditLog.entity, auditLog.createdAt, auditLog.id],
  action: [auditLog.action, auditLog.createdAt, auditLog.id],
};

function orderOf({ listSort, filter }: AuditPageRequest): PgColumn[] {
  // A filter that fixes the sorted column leaves the time order.
  const fixed =
    (listSort.field === 'entity' && filter.entity) ||
    (listSort.field === 'action' && filter.action);
  return sortKeys[fixed ? 'createdAt' : listSort.field];
}

/**
 * Entity, action and entity id are searched in one lower-cased column with a trigram index,
 * the actor's e-mail among the tenant's users by its own; the users it finds lead to their
 * entries through the actor index, so the two form a BitmapOr. A fragment of three characters
 * or more matches anywhere, a shorter one at the start of a field (the trigram indexes serve
 * that too: a word's first letters make trigrams of their own). LIKE's wildcards match only
 * themselves.
 */
function searchFor(tenantId: string, text: string): SQL {
  const fragment = escapeLike(text);
  const short = [...text].length < 3;
  const inColumns = short
    ? or(
        sql`${auditLog.search} like lower(${`${fragment}%`})`,
        sql`${auditLog.search} like lower(${`%\n${fragment}%`})`,
      )
    : sql`${auditLog.search} like lower(${`%${fragment}%`})`;
  const email = ilike(users.email, short ? `${fragment}%` : `%${fragment}%`);
  const actors = sql`array(select ${users.id} from ${users}
    where ${users.tenantId} = ${tenantId} and ${email})`;
  return or(inColumns, sql`${auditLog.actorId} = any(${actors})`)!;
}

function pageWhere(tenantId: string, filter: AuditPageRequest['filter']): SQL {
  return and(
    eq(auditLog.tenantId, tenantId),
    filter.search ? searchFor(tenantId, filter.search) : undefined,
    filter.entity ? eq(auditLog.entity, filter.entity) : undefined,
    filter.entityId ? eq(auditLog.entityId, filter.entityId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.actorId ? eq(auditLog.actorId, filter.actorId) : undefined,
  )!;
}

/**
 * The total as one statement, counted up to the cap: an audit log grows without end, and a
 * counter kept beside it would make every change of the tenant wait for the others. Without a
 * search the count walks, in time order, the index of the filters' own columns (every filter
 * has one), reading at most one entry past the cap; a search is counted as the planner sees
 * fit: from the trigram indexes when it matches few entries, stopping at the cap otherwise.
 */
export function auditCountQuery(
  db: Database,
  tenantId: string,
  filter: AuditPageRequest['filter'],
) {
  const where = pageWhere(tenantId, filter);
  if (filter.search) return cappedCountQuery(db, auditLog, where);
  const matches = db
    .select({ one: sql`1` })
    .from(auditLog)
    .where(where)
    .orderBy(...sortKeys.createdAt)
    .limit(COUNT_CAP + 1)
    .as('capped_matches');
  return db.select({ value: sql<number>`count(*)::int`.mapWith(Number) }).from(matches);
}

/**
 * A page and the total as one statement: the page's ids are found in the sort's index alone
 * (an index-only scan: a deep page skips index entries, not rows), then only those entries
 * are read, each with its actor's e-mail, matched within the tenant as well so that an id can
 * never reveal a user of another tenant; a deleted actor leaves the e-mail null.
 */
export function auditPageQuery(db: Database, tenantId: string, request: AuditPageRequest) {
  const direction = request.listSort.direction === 1 ? desc : asc;
  const keys = orderOf(request);
  const ids = db
    .select(Object.fromEntries(keys.map((key, i) => [`k${i}`, key])))
    .from(auditLog)
    .where(pageWhere(tenantId, request.filter))
    .orderBy(...keys.map((key) => direction(key)))
    .limit(request.pageSize)
    .offset((request.pageIndex - 1) * request.pageSize)
    .as('page');
  const key = (i: number) => ids[`k${i}` as keyof typeof ids] as unknown as PgColumn;
  const total = auditCountQuery(db, tenantId, request.filter);
  return db
    .select({ ...rowColumns, total: sql<number>`(${total})`.mapWith(Number) })
    .from(ids)
    .innerJoin(auditLog, eq(auditLog.id, key(keys.length - 1)))
    .leftJoin(users, and(eq(users.id, auditLog.actorId), eq(users.tenantId, auditLog.tenantId)))
    .orderBy(...keys.map((_, i) => direction(key(i))));
}

/** The caller's tenant's audit entries, newest first by default. */
export async function pageAudit({
  db,
  caller,
  request,
}: Pick<ServiceContext, 'db' | 'caller'> & { request: AuditPageRequest }): Promise<
  Page<AuditEntry>
> {
  const rows = await auditPageQuery(db, caller.tenantId, request);
  let total = rows[0]?.total ?? 0;
  // Past the last page there is no row to carry the total.
  if (rows.length === 0 && request.pageIndex > 1) {
    const [count] = await auditCountQuery(db, caller.tenantId, request.filter);
    total = count?.value ?? 0;
  }
  return toPage(
    request,
    rows.map(({ total: _, ...row }) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    cappedTotal(total),
  );
}
