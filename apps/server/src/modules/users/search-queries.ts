import { and, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { COUNT_CAP, type Page } from '@tc/contract/paging';
import type { User, UserPageRequest } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { roles, userSortCounts, users } from '../../db/schema/identity';
import { cappedTotal, searchPattern, toPage } from '../../http/paging';
import {
  firstSearchRead,
  nextSearchRead,
  surelyOverCap,
  type SearchSample,
  type UserStatus,
} from './page-plan';
import {
  kept,
  offsetOf,
  ordered,
  orderKeys,
  pageOrder,
  rowsQuery,
  type StatementRunner,
} from './page-sql';
import { rowColumns, toUser } from './rows';

type Filter = UserPageRequest['filter'];

/**
 * The search as the three trigram indexes serve it (a BitmapOr): a short fragment matches the
 * start of a first name, last name or e-mail address, a longer one anywhere (`searchPattern`).
 * The fragment reaches the statement as a subquery's value, which the planner does not look
 * into: it plans every search alike, through the indexes, instead of judging from column
 * statistics that a common fragment is cheaper to find by reading the table from its start.
 * (Searches dense enough for that are read along the sort's index instead, by choice:
 * `firstSearchRead`.)
 */
function indexedSearch(search: string): SQL {
  const pattern = sql`(select ${searchPattern(search)}::text)`;
  return or(
    sql`${users.firstName} ilike ${pattern}`,
    sql`${users.lastName} ilike ${pattern}`,
    sql`${users.email} ilike ${pattern}`,
  )!;
}

/** The same test as it runs user by user along a covering index (lower and LIKE: cheaper). */
export function testedSearch(
  search: string,
  columns: { firstName: SQLWrapper; lastName: SQLWrapper; email: SQLWrapper },
): SQL {
  const pattern = searchPattern(search);
  return or(
    sql`lower(${columns.firstName}) like lower(${pattern})`,
    sql`lower(${columns.lastName}) like lower(${pattern})`,
    sql`lower(${columns.email}) like lower(${pattern})`,
  )!;
}

const SAMPLE_SIZE = 1000;
const STATUSES: UserStatus[] = ['active', 'inactive'];

/**
 * A random sample of SAMPLE_SIZE of the tenant's users: within each status the first by id,
 * along users_tenant_status_idx (which holds every column tested), as many of each status as
 * its share of the tenant. Ids are random, so the sample is; and in proportion to the
 * statuses, each sampled user stands for as many users as any other. Then how many matched
 * the search, alone and with the filter, and, from user_sort_counts, how many users the
 * filter keeps and the tenant has.
 */
export function sampleQuery(db: Database, tenantId: string, filter: Filter) {
  const counted = (where: SQL | undefined) =>
    sql`(select coalesce(sum(${userSortCounts.n}), 0) from ${userSortCounts} where ${and(
      eq(userSortCounts.tenantId, tenantId),
      eq(userSortCounts.sort, 'id'),
      where,
    )})`;
  const tenantRows = counted(undefined);
  const strata = STATUSES.map(
    (status) => sql`(select ${users.firstName} as first_name, ${users.lastName} as last_name,
      ${users.email} as email, ${users.status} as status, ${users.roleId} as role_id
      from ${users} where ${users.tenantId} = ${tenantId} and ${users.status} = ${status}
      order by ${users.id}
      limit (select round(${SAMPLE_SIZE} * ${counted(eq(userSortCounts.status, status))}
        / greatest(${tenantRows}, 1))::int))`,
  );
  const sampled = {
    firstName: sql.raw('sampled.first_name'),
    lastName: sql.raw('sampled.last_name'),
    email: sql.raw('sampled.email'),
    status: sql.raw('sampled.status'),
    roleId: sql.raw('sampled.role_id'),
  };
  const matches = testedSearch(filter.search!, sampled);
  const filtered = and(
    matches,
    filter.status ? sql`${sampled.status} = ${filter.status}` : undefined,
    filter.roleId ? sql`${sampled.roleId} = ${filter.roleId}` : undefined,
  );
  const candidates = counted(
    and(
      filter.status ? eq(userSortCounts.status, filter.status) : undefined,
      filter.roleId ? eq(userSortCounts.roleId, filter.roleId) : undefined,
    ),
  );
  return db
    .select({
      sample: sql<SearchSample>`json_build_object('size', count(*),
        'search', count(*) filter (where ${matches}), 'kept', count(*) filter (where ${filtered}),
        'candidates', ${candidates}, 'tenantRows', ${tenantRows})`,
    })
    .from(sql`(${sql.join(strata, sql` union all `)}) as sampled`);
}

/**
 * One statement for a search's matches and its page. `source` finds the matches: through the
 * trigram indexes, at most COUNT_CAP + 1 (`capped`) or all (`all`); or along the sort's index,
 * the first `walk` of them in the sort's order. The statement answers how many were found
 * and, if they hold the page (all matches, or the first ones in order), the page's rows,
 * sorted from them; a sort of at most what the source found.
 */
export function matchesQuery(
  db: Database,
  tenantId: string,
  request: UserPageRequest,
  source: { capped: true } | { all: true } | { walk: number },
) {
  const field = request.listSort.field;
  const keys = orderKeys[field];
  const order = ordered(request);
  const selected = db
    .select({
      id: users.id,
      ...Object.fromEntries(keys.map((key, i) => [`k${i}`, sql`${key}`.as(`k${i}`)])),
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .$dynamic();
  const search = request.filter.search!;
  const found =
    'walk' in source
      ? selected
          .where(and(kept(tenantId, request.filter), testedSearch(search, users)))
          .orderBy(...[...keys, sql`${users.id}`].map((key) => order(key)))
          .limit(source.walk)
      : selected.where(and(kept(tenantId, request.filter), indexedSearch(search)));
  const matches = db.$with('matches').as('capped' in source ? found.limit(COUNT_CAP + 1) : found);
  const counted = sql<number>`(select count(*)::int from ${matches})`;
  const key = (i: number) => sql`${sql.identifier(`k${i}`)}`;
  const pageIds = db
    .select({ id: matches.id })
    .from(matches)
    .where('capped' in source ? sql`${counted} <= ${COUNT_CAP}` : undefined)
    .orderBy(...keys.map((_, i) => order(key(i))), order(matches.id))
    .limit(request.pageSize)
    .offset(offsetOf(request));
  return db
    .with(matches)
    .select({ ...rowColumns, matches: counted.mapWith(Number) })
    .from(sql`(select 1) as one`)
    .leftJoin(users, and(eq(users.tenantId, tenantId), sql`${users.id} = any(array(${pageIds}))`))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .orderBy(...[...keys, sql`${users.id}`].map((k) => order(k)));
}

/** The ids of one page of a dense search: users tested one by one along the sort's index. */
function walkedIdsQuery(db: Database, tenantId: string, request: UserPageRequest) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(kept(tenantId, request.filter), testedSearch(request.filter.search!, users)))
    .orderBy(...pageOrder(request))
    .limit(request.pageSize)
    .offset(offsetOf(request));
}

/**
 * The ids of one page of a search sorted by role, read role by role: the tenant's roles in
 * name order and, in each, its users by id along users_tenant_role_idx, tested one by one and
 * at most the page's depth of them, until the page is full. A nested loop hands over its
 * outer rows' matches in the outer rows' order, and a subquery with its own ORDER BY is kept
 * as it is, so the ids come in the page's order without sorting every match; the page's rows
 * are sorted again (rowsQuery), and the deep-page tests compare every page with ORDER BY's.
 */
function roleWalkIdsQuery(tenantId: string, request: UserPageRequest): SQL {
  const direction = sql.raw(request.listSort.direction === 1 ? 'desc' : 'asc');
  return sql`select walked.id from (
      select ${roles.id} as role_id, ${roles.name} as name from ${roles}
      where ${roles.tenantId} = ${tenantId}
      order by ${roles.name} ${direction}, ${roles.id} ${direction}) ordered_roles
    cross join lateral (
      select ${users.id} as id from ${users}
      where ${and(kept(tenantId, request.filter), testedSearch(request.filter.search!, users))}
        and ${users.roleId} = ordered_roles.role_id
      order by ${users.id} ${direction}
      limit ${request.pageIndex * request.pageSize}) walked
    limit ${request.pageSize} offset ${offsetOf(request)}`;
}

/**
 * The page of a search with more than COUNT_CAP matches, uncounted: read role by role (by
 * role), along the sort's index, or sorted from all matches, whichever the sample says reads
 * fewer users.
 */
async function pageOfManyMatches(
  db: Database,
  tenantId: string,
  request: UserPageRequest,
  sample: SearchSample,
  run: StatementRunner,
): Promise<User[]> {
  const walked = (ids: SQLWrapper) => run(rowsQuery(db, tenantId, request, [ids]));
  if (request.listSort.field === 'role') {
    return (await walked(roleWalkIdsQuery(tenantId, request))).map(toUser);
  }
  return nextSearchRead(request, sample) === 'walk'
    ? (await walked(walkedIdsQuery(db, tenantId, request))).map(toUser)
    : usersOf(await run(matchesQuery(db, tenantId, request, { all: true })));
}

/**
 * A page of a search: the sample (one small statement); when it leaves no doubt that more
 * than COUNT_CAP users match, only the page; otherwise one statement for the count and the
 * page and, when the trigram indexes found more than COUNT_CAP matches, a third for the page.
 */
export async function readSearchPage(
  db: Database,
  tenantId: string,
  request: UserPageRequest,
  run: StatementRunner,
): Promise<Page<User>> {
  const [{ sample } = { sample: undefined }] = await run(sampleQuery(db, tenantId, request.filter));
  if (!sample) return toPage(request, [], 0);
  const overCap = cappedTotal(COUNT_CAP + 1);
  if (surelyOverCap(sample)) {
    return toPage(request, await pageOfManyMatches(db, tenantId, request, sample, run), overCap);
  }
  if (firstSearchRead(request, sample) === 'walk') {
    const walk = Math.max(COUNT_CAP + 1, request.pageIndex * request.pageSize);
    const answer = await run(matchesQuery(db, tenantId, request, { walk }));
    return toPage(request, usersOf(answer), cappedTotal(answer[0]?.matches ?? 0));
  }
  const answer = await run(matchesQuery(db, tenantId, request, { capped: true }));
  const counted = answer[0]?.matches ?? 0;
  if (counted <= COUNT_CAP) return toPage(request, usersOf(answer), counted);
  return toPage(request, await pageOfManyMatches(db, tenantId, request, sample, run), overCap);
}

type MatchesRow = Awaited<ReturnType<typeof matchesQuery>>[number];

/** The users of a matches statement: its one row without a user means an empty page. */
function usersOf(answer: MatchesRow[]): User[] {
  return answer.flatMap(({ matches: _, ...row }) =>
    row.id === null ? [] : [toUser(row as Parameters<typeof toUser>[0])],
  );
}
