import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuditEntry, AuditPageRequest, AuditSortField } from '@tc/contract/audit';
import type { Page } from '@tc/contract/paging';
import type { Database } from '../../db/database';
import { auditLog } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import {
  cappedCountQuery,
  matchesSearch,
  matchesSearchInFields,
  pageIdsQuery,
  pageOfCountedRows,
} from '../../http/paging';

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

export function orderOf({ listSort, filter }: AuditPageRequest): PgColumn[] {
  // A filter that fixes the sorted column leaves the time order.
  const fixed =
    (listSort.field === 'entity' && filter.entity) ||
    (listSort.field === 'action' && filter.action);
  return sortKeys[fixed ? 'createdAt' : listSort.field];
}

/** Up to this many users whose e-mail a search matches are named in the page's statement. */
const ACTORS_NAMED = 1_000;

/**
 * The users whose e-mail the search matches, found by the e-mail trigram index: named in the
 * page's statement (as the planner then knows whose entries, and how many, it looks for), or,
 * when the search matches more users than that, found by a subquery of the statement.
 */
export type Actors = string[] | 'by subquery';

function emailMatches(tenantId: string, text: string): SQL {
  return and(eq(users.tenantId, tenantId), matchesSearch(users.email, text))!;
}

export async function actorsMatching(
  db: Database,
  tenantId: string,
  text: string,
): Promise<Actors> {
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(emailMatches(tenantId, text))
    .limit(ACTORS_NAMED + 1);
  return found.length > ACTORS_NAMED ? 'by subquery' : found.map((user) => user.id);
}

/**
 * Entity, action and entity id are searched in one lower-cased column with a trigram index;
 * the actors the e-mail search found lead to their entries through the actor index, so the
 * two form a BitmapOr. A short fragment matches the start of a field or e-mail, a longer one
 * anywhere (`searchPattern`).
 */
function searchFor(tenantId: string, text: string, actors: Actors): SQL {
  const inColumns = matchesSearchInFields(auditLog.search, text);
  if (actors === 'by subquery') {
    const ids = sql`array(select ${users.id} from ${users} where ${emailMatches(tenantId, text)})`;
    return or(inColumns, sql`${auditLog.actorId} = any(${ids})`)!;
  }
  return actors.length > 0 ? or(inColumns, inArray(auditLog.actorId, actors))! : inColumns;
}

/** What a page is filtered by: the request's filter, and the actors its search found. */
export interface Filters {
  filter: AuditPageRequest['filter'];
  actors: Actors;
}

export function pageWhere(tenantId: string, { filter, actors }: Filters): SQL {
  return and(
    eq(auditLog.tenantId, tenantId),
    filter.search ? searchFor(tenantId, filter.search, actors) : undefined,
    filter.entity ? eq(auditLog.entity, filter.entity) : undefined,
    filter.entityId ? eq(auditLog.entityId, filter.entityId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.actorId ? eq(auditLog.actorId, filter.actorId) : undefined,
    // Every index ends with the time, so a range narrows whichever one the page walks.
    filter.from ? sql`${auditLog.createdAt} >= ${filter.from}::timestamptz` : undefined,
    filter.to ? sql`${auditLog.createdAt} < ${filter.to}::timestamptz` : undefined,
  )!;
}

/**
 * The total as one statement, counted up to the cap: an audit log grows without end, and a
 * counter kept beside it would make every change of the tenant wait for the others. Without a
 * search the count walks, in time order, the index of the filters' own columns (every filter
 * has one), reading at most one entry past the cap; a search is counted as the planner sees
 * fit: from the trigram and actor indexes when it matches few entries, stopping at the cap
 * otherwise.
 */
export function auditCountQuery(db: Database, tenantId: string, filters: Filters) {
  const inTimeOrder = filters.filter.search ? [] : sortKeys.createdAt;
  return cappedCountQuery(db, auditLog, pageWhere(tenantId, filters), inTimeOrder);
}

/**
 * A page and the total as one statement: the page's ids are found in the sort's index alone
 * (an index-only scan: a deep page skips index entries, not rows), then only those entries
 * are read, each with its actor's e-mail, matched within the tenant as well so that an id can
 * never reveal a user of another tenant; a deleted actor leaves the e-mail null.
 */
export function auditPageQuery(
  db: Database,
  tenantId: string,
  request: AuditPageRequest,
  actors: Actors = [],
) {
  const filters = { filter: request.filter, actors };
  const list = { table: auditLog, id: auditLog.id, where: pageWhere(tenantId, filters) };
  const ids = pageIdsQuery(db, list, orderOf(request), request);
  const total = auditCountQuery(db, tenantId, filters);
  return db
    .select({ ...rowColumns, total: sql<number>`(${total})`.mapWith(Number) })
    .from(ids.page)
    .innerJoin(auditLog, eq(auditLog.id, ids.id))
    .leftJoin(users, and(eq(users.id, auditLog.actorId), eq(users.tenantId, auditLog.tenantId)))
    .orderBy(...ids.orderBy);
}

/** The caller's tenant's audit entries, newest first by default. */
export async function pageAudit({
  db,
  caller,
  request,
}: Pick<ServiceContext, 'db' | 'caller'> & { request: AuditPageRequest }): Promise<
  Page<AuditEntry>
> {
  const { search } = request.filter;
  const actors = search ? await actorsMatching(db, caller.tenantId, search) : [];
  const rows = await auditPageQuery(db, caller.tenantId, request, actors);
  return pageOfCountedRows(
    request,
    rows,
    (row) => ({ ...row, createdAt: row.createdAt.toISOString() }),
    () => auditCountQuery(db, caller.tenantId, { filter: request.filter, actors }),
  );
}
