import { and, asc, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { UserPageRequest, UserSortField } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { roles, userCounts, users } from '../../db/schema/identity';
import type { UserStatus } from './page-plan';
import { selectRows } from './rows';

/**
 * Each sort's order, then the id: the text sorts by first character, then by the column (the
 * order of their indexes, and the same as by the column alone under byte-order collations);
 * by role means by the role's name, then the id.
 */
export const orderKeys: Record<UserSortField, SQL[]> = {
  email: [sql`left(${users.email}, 1)`, sql`${users.email}`],
  firstName: [sql`left(${users.firstName}, 1)`, sql`${users.firstName}`],
  lastName: [sql`left(${users.lastName}, 1)`, sql`${users.lastName}`],
  createdAt: [sql`${users.createdAt}`],
  status: [sql`${users.status}`],
  role: [sql`${roles.name}`],
};

/** ORDER BY in the requested direction, or against it (`reversed`). */
export const ordered = (request: UserPageRequest, reversed = false) =>
  (request.listSort.direction === 1) !== reversed ? desc : asc;

/** The ORDER BY of a page: the sort's keys, then the id, in the requested direction. */
export const pageOrder = (request: UserPageRequest) =>
  [...orderKeys[request.listSort.field], sql`${users.id}`].map((key) => ordered(request)(key));

export const offsetOf = (request: UserPageRequest) => (request.pageIndex - 1) * request.pageSize;

/** The tenant's users that the filter (and a read's own role or status) keeps. */
export function kept(
  tenantId: string,
  filter: UserPageRequest['filter'],
  narrow: { roleId?: string; status?: UserStatus } = {},
): SQL {
  const status = narrow.status ?? filter.status;
  return and(
    eq(users.tenantId, tenantId),
    status ? eq(users.status, status) : undefined,
    filter.roleId ? eq(users.roleId, filter.roleId) : undefined,
    narrow.roleId ? eq(users.roleId, narrow.roleId) : undefined,
  )!;
}

/**
 * The page's rows, from the ids the given queries find, in the requested order, with any
 * columns the statement adds beside them.
 */
export function rowsQuery<Extra extends Record<string, SQL>>(
  db: Database,
  tenantId: string,
  request: UserPageRequest,
  ids: SQLWrapper[],
  extra?: Extra,
) {
  const found = sql.join(
    ids.map((query) => sql`(${query})`),
    sql` union all `,
  );
  return selectRows(db, extra)
    .where(and(eq(users.tenantId, tenantId), sql`${users.id} = any(array(${found}))`))
    .orderBy(...pageOrder(request));
}

/**
 * A page near the start of an unfiltered order, and the tenant's number of users, in one
 * statement: the page's ids along the sort's index with an OFFSET of at most SHALLOW_ROWS
 * index entries (cheaper than a second round trip for the stretches), its rows by id.
 */
export function shallowRowsQuery(db: Database, tenantId: string, request: UserPageRequest) {
  const ids = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.tenantId, tenantId))
    .orderBy(...pageOrder(request))
    .limit(request.pageSize)
    .offset(offsetOf(request));
  const total = sql<number>`(select coalesce(sum(${userCounts.n}), 0) from ${userCounts}
    where ${userCounts.tenantId} = ${tenantId})`.mapWith(Number);
  return rowsQuery(db, tenantId, request, [ids], { total });
}

/** Runs one statement; a test passes one that also explains it. */
export type StatementRunner = <Query extends SQLWrapper & PromiseLike<unknown>>(
  query: Query,
) => Promise<Awaited<Query>>;

export const execute: StatementRunner = (query) => Promise.resolve(query) as never;
