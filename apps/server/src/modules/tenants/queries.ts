import { and, eq, getTableColumns, or, sql, sum } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type { Tenant, TenantPageRequest } from '@tc/contract/tenants';
import type { Database } from '../../db/database';
import { tenantCounts, tenants } from '../../db/schema/tenants';
import type { ServiceContext } from '../../http/crud-routes';
import {
  cappedCountQuery,
  cappedTotal,
  containsText,
  isShortFragment,
  nearerEndSlice,
  pageSlice,
  pageWindow,
  toPage,
  type PageSlice,
} from '../../http/paging';
import { notFound } from '../../http/problem';
import { fileUrl } from '../files';

// Written as SQL rather than `is_master = $1`: the partial indexes of migration 0017 are
// proven usable from the condition itself, whatever plan a prepared statement settles on.
export const masterRealm = sql`${tenants.isMaster}`;
const isManaged = sql`not ${tenants.isMaster}`;

/** The master realm, found through its own unique index. */
export async function findMasterRealm(db: Database) {
  const [row] = await db.select().from(tenants).where(masterRealm).limit(1);
  return row;
}

export type TenantRow = typeof tenants.$inferSelect;

export function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain ?? '',
    logoUrl: row.logoFileId ? fileUrl(row.logoFileId) : null,
    allowSignup: row.allowSignup,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Tenant management never sees the master realm: it answers 404 like an unknown id. */
export const managed = (id: string) => and(eq(tenants.id, id), isManaged);

/** The tenant row, locked for the rest of the transaction when `lock` is set. */
export async function requireTenant(db: Database, id: string, lock = false): Promise<TenantRow> {
  const query = db.select().from(tenants).where(managed(id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('tenant.not_found');
  return row;
}

/** The sort columns, each served by its tenants_list_* index (in either direction). */
const sortColumns = {
  name: sql`lower(${tenants.name})`,
  domain: tenants.domain,
  createdAt: tenants.createdAt,
};

/** Managed tenants: the sum of the trigger-kept slots, never a count over the table. */
async function countManaged(db: Database): Promise<number> {
  const [row] = await db.select({ n: sum(tenantCounts.n).mapWith(Number) }).from(tenantCounts);
  return row?.n ?? 0;
}

/** OFFSET 0, which Drizzle leaves out as it stands: it makes a subquery planned on its own. */
const OFFSET_ZERO = sql`0` as unknown as number;

/**
 * A page of the tenants matching a search, by "contains" on name or domain, with their number.
 * From three characters on, each column's trigram index finds the matches (a BitmapOr); they
 * are counted and sorted, few as they usually are, in one statement. The subquery's OFFSET 0
 * keeps the planner from walking a sort index instead and testing every tenant on the way, as
 * it does when it overestimates how many match. Shorter fragments have no trigram: for them the
 * ordered walk, which stops at the page's last row, is the better plan, and the matches are
 * counted apart (up to the cap of a page's count, 10,001).
 */
async function searchPage(db: Database, search: string, request: TenantPageRequest) {
  const where = and(
    isManaged,
    or(containsText(tenants.name, search), containsText(tenants.domain, search)),
  );
  const window = pageWindow(request, sortColumns, tenants.id);
  if (isShortFragment(search)) {
    const [rows, counted] = await Promise.all([
      db
        .select()
        .from(tenants)
        .where(where)
        .orderBy(...window.orderBy)
        .limit(window.limit)
        .offset(window.offset),
      cappedCountQuery(db, tenants, where),
    ]);
    return toPage(request, rows.map(toTenant), cappedTotal(counted[0]?.value ?? 0));
  }
  const matches = db
    .select({ ...getTableColumns(tenants), matches: sql<number>`count(*) over ()`.as('matches') })
    .from(tenants)
    .where(where)
    .offset(OFFSET_ZERO)
    .as('tenants');
  const rows = await db
    .select()
    .from(matches)
    .orderBy(...window.orderBy)
    .limit(window.limit)
    .offset(window.offset);
  // Past the last match there is no row to tell their number: they are counted apart.
  // Past 10,000 matches the total is flagged as an estimate, as every list's search answers.
  const total = cappedTotal(
    rows.length
      ? Number(rows[0]!.matches)
      : ((await cappedCountQuery(db, tenants, where))[0]?.value ?? 0),
  );
  return toPage(request, rows.map(toTenant), total);
}

/**
 * One page of the super administrator's tenant list. Unsearched, the total is read from the
 * trigger-kept count and the rows are walked along one sort index, from whichever end is
 * nearer; searched, the matches are counted and sorted. No shape sorts or scans every tenant,
 * so a page at 10,000 tenants costs what it costs at ten. (The total and the rows are read by
 * two statements: a tenant created between them may shift a page by one row, as it would
 * between two page requests.)
 */
export async function pageTenants({
  db,
  request,
}: ServiceContext & { request: TenantPageRequest }): Promise<Page<Tenant>> {
  const search = request.filter.search;
  if (search) return searchPage(db, search, request);
  const offset = (request.pageIndex - 1) * request.pageSize;
  // Page 1 does not depend on the total: both are read at once.
  const [total, firstRows] = await Promise.all([
    countManaged(db),
    offset === 0 ? readPage(db, request, pageSlice(request)) : [],
  ]);
  const rows =
    offset === 0
      ? firstRows
      : await readPage(db, request, nearerEndSlice(offset, request.pageSize, total));
  return toPage(request, rows.map(toTenant), total);
}

async function readPage(
  db: Database,
  request: TenantPageRequest,
  plan: PageSlice,
): Promise<TenantRow[]> {
  if (plan.limit === 0) return [];
  const { field, direction } = request.listSort;
  const order = plan.reversed
    ? { field, direction: direction === 1 ? (0 as const) : (1 as const) }
    : request.listSort;
  const { orderBy } = pageWindow({ ...request, listSort: order }, sortColumns, tenants.id);
  const rows = await db
    .select()
    .from(tenants)
    .where(isManaged)
    .orderBy(...orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
  return plan.reversed ? rows.reverse() : rows;
}
