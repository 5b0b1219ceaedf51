import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type { User, UserPageRequest, UserSortField } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { roles, userSortCounts, users } from '../../db/schema/identity';
import { toPage } from '../../http/paging';
import { planUserPage, type PageRun, type SortStretch, type UserStatus } from './page-plan';
import {
  execute,
  kept,
  ordered,
  orderKeys,
  rowsQuery,
  shallowRowsQuery,
  type StatementRunner,
} from './page-sql';
import { toUser } from './rows';
import { readSearchPage } from './search-queries';

/** Which counts of user_sort_counts cut each sort into stretches. */
export const countedSort: Record<UserSortField, string> = {
  email: 'email',
  firstName: 'first_name',
  lastName: 'last_name',
  createdAt: 'created_at',
  status: 'id',
  role: 'id',
};

/** The users of one stretch: one range of the sort's index. */
function inStretch(field: UserSortField, bucket: string): SQL {
  if (field === 'createdAt') {
    const [year, month] = bucket.split('-').map(Number) as [number, number];
    return and(
      gte(users.createdAt, new Date(Date.UTC(year, month - 1, 1))),
      lt(users.createdAt, new Date(Date.UTC(year, month, 1))),
    )!;
  }
  if (field === 'status' || field === 'role') {
    const next = HEX[HEX.indexOf(bucket) + 1];
    return and(gte(users.id, uuidFrom(bucket)), next ? lt(users.id, uuidFrom(next)) : undefined)!;
  }
  return sql`${orderKeys[field][0]} = ${bucket}`;
}

const HEX = '0123456789abcdef';
const uuidFrom = (digit: string) => `${digit}0000000-0000-0000-0000-000000000000`;

/**
 * The stretches of the requested sort that the filter keeps, in ascending order, from
 * user_sort_counts: by role, each role's id buckets, the roles by name; by status, each
 * status's id buckets; otherwise the sort's buckets.
 */
export function stretchesQuery(db: Database, tenantId: string, request: UserPageRequest) {
  const field = request.listSort.field;
  const { status, roleId } = request.filter;
  const byRole = field === 'role';
  const byStatus = field === 'status';
  return db
    .select({
      bucket: userSortCounts.bucket,
      roleId: byRole ? roles.id : sql<null>`null`,
      status: byStatus ? sql<UserStatus>`${userSortCounts.status}` : sql<null>`null`,
      n: sql<number>`sum(${userSortCounts.n})::int`.mapWith(Number),
    })
    .from(userSortCounts)
    .innerJoin(roles, eq(roles.id, userSortCounts.roleId))
    .where(
      and(
        eq(userSortCounts.tenantId, tenantId),
        eq(userSortCounts.sort, countedSort[field]),
        status ? eq(userSortCounts.status, status) : undefined,
        roleId ? eq(userSortCounts.roleId, roleId) : undefined,
      ),
    )
    .groupBy(
      ...(byRole ? [roles.name, roles.id] : []),
      ...(byStatus ? [userSortCounts.status] : []),
      userSortCounts.bucket,
    )
    .having(sql`sum(${userSortCounts.n}) > 0`)
    .orderBy(
      ...(byRole ? [asc(roles.name), asc(roles.id)] : []),
      ...(byStatus ? [asc(userSortCounts.status)] : []),
      asc(userSortCounts.bucket),
    );
}

/** The ids of one run: inside one stretch, along the sort's index, at most half of it skipped. */
function runIdsQuery(db: Database, tenantId: string, request: UserPageRequest, run: PageRun) {
  const field = request.listSort.field;
  const order = ordered(request, run.reversed);
  // Within one role, by role is by id.
  const keys = field === 'role' ? [] : orderKeys[field];
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(kept(tenantId, request.filter, run), inStretch(field, run.bucket)))
    .orderBy(...[...keys, sql`${users.id}`].map((key) => order(key)))
    .limit(run.limit)
    .offset(run.offset);
}

/**
 * How deep into an unfiltered order a page may end and still be read with an OFFSET: reading
 * this many entries of an index costs less than the round trip that finds the page's stretch.
 * Most pages asked for are first pages.
 */
export const SHALLOW_ROWS = 2_000;

/** Unfiltered, in an order that one index holds (by role is by name, of another table), near its start. */
function isShallow(request: UserPageRequest): boolean {
  const { status, roleId } = request.filter;
  return (
    !status &&
    !roleId &&
    request.listSort.field !== 'role' &&
    request.pageIndex * request.pageSize <= SHALLOW_ROWS
  );
}

/**
 * A page of the tenant's users and its total. Near the start of an unfiltered order: one
 * statement. Otherwise, without a search: the stretches (one small statement), then the rows
 * (one statement); searches: search-queries.ts.
 */
export async function readUserPage(
  db: Database,
  tenantId: string,
  request: UserPageRequest,
  run: StatementRunner = execute,
): Promise<Page<User>> {
  if (request.filter.search) return readSearchPage(db, tenantId, request, run);
  if (isShallow(request)) {
    const rows = await run(shallowRowsQuery(db, tenantId, request));
    // A page past the end has no row to carry the total: the stretches tell it.
    if (rows.length > 0) {
      return toPage(request, rows.map(toUser), rows[0]!.total);
    }
  }
  const stretches = (await run(stretchesQuery(db, tenantId, request))).map(
    ({ bucket, roleId, status, n }): SortStretch => ({
      bucket,
      n,
      ...(roleId && { roleId }),
      ...(status && { status }),
    }),
  );
  const plan = planUserPage(request, stretches);
  if (plan.runs.length === 0) return toPage(request, [], plan.total);
  const ids = plan.runs.map((pageRun) => runIdsQuery(db, tenantId, request, pageRun));
  const rows = await run(rowsQuery(db, tenantId, request, ids));
  return toPage(request, rows.map(toUser), plan.total);
}
