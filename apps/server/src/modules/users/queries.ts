import { and, count, eq, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type { User, UserPageRequest, UserSortField } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { roles, userCounts, users } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { fromBookmark, type EmailBookmarks } from './bookmarks';
import { hashPassword } from '../../identity/passwords';

/** The columns of a user row; never the password hash, only whether one is set. */
const rowColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  roleId: users.roleId,
  role: roles.name,
  status: users.status,
  invited: sql<boolean>`${users.passwordHash} is null`,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

const sortColumns: Record<UserSortField, AnyColumn> = {
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  status: users.status,
  role: roles.name,
  createdAt: users.createdAt,
};

function selectRows(db: Database) {
  return db.select(rowColumns).from(users).innerJoin(roles, eq(roles.id, users.roleId));
}

type SelectedRow = Awaited<ReturnType<typeof selectRows>>[number];

function toUser(row: SelectedRow): User {
  return {
    ...row,
    status: row.status === 'inactive' ? 'inactive' : 'active',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The user `id` of this tenant as a row, or undefined (also for another tenant's id). */
export async function findUserRow(
  db: Database,
  tenantId: string,
  id: string,
): Promise<User | undefined> {
  const [row] = await selectRows(db).where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return row ? toUser(row) : undefined;
}

/**
 * Search ORs "contains" over the three name columns, so each trigram index serves its part
 * (a BitmapOr); everything is scoped to the caller's tenant.
 */
function pageWhere(tenantId: string, filter: UserPageRequest['filter']): SQL | undefined {
  const search = filter.search;
  return and(
    eq(users.tenantId, tenantId),
    search
      ? or(
          containsText(users.firstName, search),
          containsText(users.lastName, search),
          containsText(users.email, search),
        )
      : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
    filter.roleId ? eq(users.roleId, filter.roleId) : undefined,
  );
}

/**
 * The ids of the requested page. Sorted by e-mail this is `WHERE tenant_id = $1 ORDER BY
 * email, id LIMIT … OFFSET …`, an index-only scan of users_tenant_email_id_idx; deep pages of
 * the unfiltered list start at a keyset bookmark, so they never skip more than one stride.
 * Only the page's ids are found this way; their columns are fetched after (a "deferred join").
 */
async function pageIds(
  db: Database,
  tenantId: string,
  where: SQL | undefined,
  request: UserPageRequest,
  bookmarks: EmailBookmarks | undefined,
) {
  const window = pageWindow(request, sortColumns, users.id);
  const { field, direction } = request.listSort;
  const unfiltered = !request.filter.search && !request.filter.status && !request.filter.roleId;
  const start =
    bookmarks && unfiltered && field === 'email'
      ? await bookmarks.seek(db, tenantId, direction, window.offset)
      : { from: null, offset: window.offset };
  const base = db.select({ id: users.id }).from(users).$dynamic();
  const sorted = field === 'role' ? base.innerJoin(roles, eq(roles.id, users.roleId)) : base;
  // Wrapped: a Drizzle query is a thenable, and returning it bare from an async function
  // would run it here instead of nesting it as a subquery of the row query.
  return {
    subquery: sorted
      .where(start.from ? and(where, fromBookmark(start.from, direction)) : where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(start.offset),
  };
}

/** One query for the rows (the page's ids, then their columns) and one for the exact count. */
export async function pageUsers({
  db,
  caller,
  request,
  bookmarks,
}: ServiceContext & {
  request: UserPageRequest;
  bookmarks?: EmailBookmarks;
}): Promise<Page<User>> {
  const where = pageWhere(caller.tenantId, request.filter);
  const { orderBy } = pageWindow(request, sortColumns, users.id);
  const { subquery: ids } = await pageIds(db, caller.tenantId, where, request, bookmarks);
  const [rows, [total]] = await Promise.all([
    selectRows(db)
      .where(and(eq(users.tenantId, caller.tenantId), inArray(users.id, ids)))
      .orderBy(...orderBy),
    countUsers(db, caller.tenantId, request.filter, where),
  ]);
  return toPage(request, rows.map(toUser), total?.value ?? 0);
}

/**
 * The exact total. Without a search it sums the trigger-kept user_counts rows (a handful per
 * tenant) instead of counting every user; a search counts through the trigram indexes.
 */
function countUsers(
  db: Database,
  tenantId: string,
  filter: UserPageRequest['filter'],
  where: SQL | undefined,
) {
  if (filter.search) return db.select({ value: count() }).from(users).where(where);
  return db
    .select({ value: sql<number>`coalesce(sum(${userCounts.n}), 0)::int` })
    .from(userCounts)
    .where(
      and(
        eq(userCounts.tenantId, tenantId),
        filter.status ? eq(userCounts.status, filter.status) : undefined,
        filter.roleId ? eq(userCounts.roleId, filter.roleId) : undefined,
      ),
    );
}

/** Inserts a user with an optional password (none: an invited user who cannot sign in yet). */
export async function insertUser(
  tx: Database,
  input: {
    tenantId: string;
    email: string;
    firstName: string;
    lastName: string;
    roleId: string;
    password?: string;
    status?: 'active' | 'inactive';
  },
): Promise<string> {
  const [user] = await tx
    .insert(users)
    .values({
      tenantId: input.tenantId,
      email: input.email.trim().toLowerCase(),
      firstName: input.firstName,
      lastName: input.lastName,
      roleId: input.roleId,
      status: input.status ?? 'active',
      passwordHash: input.password ? await hashPassword(input.password) : null,
    })
    .returning({ id: users.id });
  return user!.id;
}
