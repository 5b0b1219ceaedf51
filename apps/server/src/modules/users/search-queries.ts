import { and, asc, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { COUNT_CAP, type Page } from '@tc/contract/paging';
import type { User, UserPageRequest } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { roles, userSortCounts, users } from '../../db/schema/identity';
import { cappedTotal, searchPattern, toPage } from '../../http/paging';
import { firstSearchRead, nextSearchRead, type SearchSample } from './page-plan';
import { kept, offsetOf, ordered, orderKeys, rowsQuery, type StatementRunner } from './page-sql';
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
function testedSearch(
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

/**
 * How many of the tenant's first users by creation time match the search, alone and with the
 * filter (read along users_tenant_created_at_idx, which holds every column tested), and, from
 * user_sort_counts, how many users the filter keeps and the tenant has.
 */
export function sampleQuery(db: Database, tenantId: string, filter: Filter) {
  const sampled = db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      status: users.status,
      roleId: users.roleId,
    })
    .from(users)
    .where(eq(users.tenantId, tenantId))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(SAMPLE_SIZE)
    .as('sampled');
  const matches = testedSearch(filter.search!, sampled);
  const filtered = and(
    matches,
    filter.status ? eq(sampled.status, filter.status) : undefined,
    filter.roleId ? eq(sampled.roleId, filter.roleId) : undefined,
  );
  const counted = (where: SQL | undefined) =>
    sql`(select coalesce(sum(${userSortCounts.n}), 0) from ${userSortCounts} where ${and(
      eq(userSortCounts.tenantId, tenantId),
      eq(userSortCounts.sort, 'id'),
      where,
    )})`;
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
        'candidates', ${candidates}, 'tenantRows', ${counted(undefined)})`,
    })
    .from(sampled);
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
  const order = ordered(request);
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(kept(tenantId, request.filter), testedSearch(request.filter.search!, users)))
    .orderBy(...[...orderKeys[request.listSort.field], sql`${users.id}`].map((key) => order(key)))
    .limit(request.pageSize)
    .offset(offsetOf(request));
}

/**
 * A page of a search: the sample (one small statement), then one statement for the count and
 * the page; when the trigram indexes found more than COUNT_CAP matches, a third for the page.
 */
export async function readSearchPage(
  db: Database,
  tenantId: string,
  request: UserPageRequest,
  run: StatementRunner,
): Promise<Page<User>> {
  const [{ sample } = { sample: undefined }] = await run(sampleQuery(db, tenantId, request.filter));
  if (!sample) return toPage(request, [], 0);
  if (firstSearchRead(request, sample) === 'walk') {
    const walk = Math.max(COUNT_CAP + 1, request.pageIndex * request.pageSize);
    const answer = await run(matchesQuery(db, tenantId, request, { walk }));
    return toPage(request, usersOf(answer), cappedTotal(answer[0]?.matches ?? 0));
  }
  const answer = await run(matchesQuery(db, tenantId, request, { capped: true }));
  const counted = answer[0]?.matches ?? 0;
  if (counted <= COUNT_CAP) return toPage(request, usersOf(answer), counted);
  const found =
    nextSearchRead(request, sample) === 'walk'
      ? (await run(rowsQuery(db, tenantId, request, [walkedIdsQuery(db, tenantId, request)]))).map(
          toUser,
        )
      : usersOf(await run(matchesQuery(db, tenantId, request, { all: true })));
  return toPage(request, found, cappedTotal(counted));
}

type MatchesRow = Awaited<ReturnType<typeof matchesQuery>>[number];

/** The users of a matches statement: its one row without a user means an empty page. */
function usersOf(answer: MatchesRow[]): User[] {
  return answer.flatMap(({ matches: _, ...row }) =>
    row.id === null ? [] : [toUser(row as Parameters<typeof toUser>[0])],
  );
}
