import { asc, desc, ilike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { COUNT_CAP, type Page, type PageRequest } from '@tc/contract/paging';
import type { Database } from '../db/database';

/**
 * ORDER BY, LIMIT and OFFSET of a paged request: the chosen column in the chosen direction,
 * then the id, so equal values never swap places between pages.
 */
export function pageWindow(
  request: PageRequest,
  sortColumns: Record<string, AnyColumn | SQL>,
  idColumn: AnyColumn,
) {
  const column = sortColumns[request.listSort.field];
  if (!column) throw new Error(`No sort column for ${request.listSort.field}`);
  const direction = request.listSort.direction === 1 ? desc : asc;
  return {
    orderBy: [direction(column), direction(idColumn)] as SQL[],
    limit: request.pageSize,
    offset: (request.pageIndex - 1) * request.pageSize,
  };
}

/** Which rows of a sorted list a page reads; `reversed`: from the list's end, in the other order. */
export interface PageSlice {
  offset: number;
  limit: number;
  reversed: boolean;
}

/** The rows a request's page reads, from the start of its order. */
export function pageSlice(request: PageRequest): PageSlice {
  return {
    offset: (request.pageIndex - 1) * request.pageSize,
    limit: request.pageSize,
    reversed: false,
  };
}

/**
 * The rows of a page at `offset` in a list of `total` sorted rows, for a list that knows its
 * total before reading the page: a page past the middle is read from the end, in the opposite
 * order, so that no page skips more than half of the list (the last page skips none); its rows
 * are put back in order afterwards.
 */
export function nearerEndSlice(offset: number, pageSize: number, total: number): PageSlice {
  const end = Math.min(offset + pageSize, total);
  if (offset >= total) return { offset, limit: 0, reversed: false };
  if (offset > total - end) return { offset: total - end, limit: end - offset, reversed: true };
  return { offset, limit: pageSize, reversed: false };
}

/**
 * A page's ids, found along the sort's index alone (an index-only scan: a deep page skips index
 * entries, not rows), as the subquery `page` of each row's id and sort keys. The page's
 * statement reads only those rows, joining them on `id`, in the order `orderBy`. `keys` is the
 * sort's order, an index's; the id is selected once, as such: naming it twice would hide that
 * the subquery is in its order.
 */
export function pageIdsQuery(
  db: Database,
  list: { table: PgTable; id: PgColumn; where: SQL },
  keys: ReadonlyArray<PgColumn | SQL>,
  request: PageRequest,
  slice: PageSlice = pageSlice(request),
) {
  const direction = (request.listSort.direction === 1) !== slice.reversed ? desc : asc;
  const sorted = keys.filter((key) => key !== list.id);
  const page = db
    .select({
      id: list.id,
      ...Object.fromEntries(sorted.map((key, i) => [`k${i}`, sql`${key}`.as(`k${i}`)])),
    })
    .from(list.table)
    .where(list.where)
    .orderBy(...keys.map((key) => direction(key)))
    .limit(slice.limit)
    .offset(slice.offset)
    .as('page');
  const keyOf = (key: PgColumn | SQL) =>
    key === list.id
      ? page.id
      : (page[`k${sorted.indexOf(key)}` as keyof typeof page] as unknown as SQL);
  return { page, id: page.id, orderBy: keys.map((key) => direction(keyOf(key))) };
}

/**
 * The page answer of a statement that carried the total on each of its rows (`total`), each
 * row made by `toRow`. Past the last page no row carries it: `count` counts it on its own. The
 * total is a capped count's (`cappedTotal`) unless it is `exact`.
 */
export async function pageOfCountedRows<Counted extends { total: number }, Row>(
  request: PageRequest,
  records: Counted[],
  toRow: (record: Omit<Counted, 'total'>) => Row,
  count: () => PromiseLike<Array<{ value: number }>>,
  exact = false,
): Promise<Page<Row>> {
  let total = records[0]?.total ?? 0;
  if (records.length === 0 && request.pageIndex > 1) total = (await count())[0]?.value ?? 0;
  const rows = records.map(({ total: _, ...record }) => toRow(record));
  return toPage(request, rows, exact ? total : cappedTotal(total));
}

/** A page's total: exact, or (flagged) the cap of a count that stopped there. */
export interface PageTotal {
  totalCount: number;
  totalCountIsEstimate?: true;
}

/**
 * `SELECT count(*) FROM (SELECT 1 FROM table WHERE … LIMIT 10001)`: counts the matching rows
 * but reads no more than one past the cap, however many match. Await it, or embed it as a
 * scalar subquery (`sql\`(${query})\``) to answer the total in the page's own statement;
 * either way turn its number into the page's total with `cappedTotal`. An `orderBy` (an
 * index's order) makes the count walk that index rather than whatever the planner picks.
 */
export function cappedCountQuery(
  db: Database,
  table: PgTable,
  where: SQL | undefined,
  orderBy: Array<PgColumn | SQL> = [],
) {
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .orderBy(...orderBy)
    .limit(COUNT_CAP + 1)
    .as('capped_matches');
  return db.select({ value: sql<number>`count(*)::int`.mapWith(Number) }).from(matches);
}

/** The total a capped count answers: exact up to the cap, else the cap flagged as estimated. */
export function cappedTotal(counted: number): PageTotal {
  return counted > COUNT_CAP
    ? { totalCount: COUNT_CAP, totalCountIsEstimate: true }
    : { totalCount: counted };
}

/** The page answer; `total` is an exact number or what `cappedTotal` made of a count. */
export function toPage<Row>(
  request: PageRequest,
  rows: Row[],
  total: number | PageTotal,
): Page<Row> {
  const { totalCount, totalCountIsEstimate } =
    typeof total === 'number' ? { totalCount: total, totalCountIsEstimate: undefined } : total;
  return {
    data: rows,
    pageIndex: request.pageIndex,
    pageSize: request.pageSize,
    totalCount,
    ...(totalCountIsEstimate ? { totalCountIsEstimate } : {}),
  };
}

/**
 * Whether a search fragment is short: one or two characters, too few for a trigram of their
 * own, so it matches only the start of a value (or of a word in it), where a trigram index
 * still finds it (a word's first letters make trigrams of their own).
 */
export function isShortFragment(text: string): boolean {
  return [...text].length < 3;
}

/**
 * The LIKE pattern of a list's search: a short fragment (`isShortFragment`) matches the start,
 * a longer one anywhere; LIKE's wildcards in the fragment match only themselves.
 */
export function searchPattern(text: string): string {
  const fragment = escapeLike(text);
  return isShortFragment(text) ? `${fragment}%` : `%${fragment}%`;
}

/** The search in one column, case-insensitive: its start or anywhere (`searchPattern`). */
export function matchesSearch(column: AnyColumn | SQL, text: string): SQL {
  return ilike(column, searchPattern(text));
}

/**
 * The search in a lower-cased column of several fields joined by line breaks (one trigram
 * index for all of them): a short fragment matches the start of any field, a longer one
 * anywhere.
 */
export function matchesSearchInFields(column: AnyColumn | SQL, text: string): SQL {
  const pattern = searchPattern(text);
  const like = (of: string) => sql`${column} like lower(${of})`;
  return isShortFragment(text) ? or(like(pattern), like(`%\n${pattern}`))! : like(pattern);
}

/** Case-insensitive "contains", with the LIKE wildcards of the search text escaped. */
export function containsText(column: AnyColumn | SQL, text: string): SQL {
  return ilike(column, `%${escapeLike(text)}%`);
}

/** The text with LIKE's wildcards (and its escape character) matching only themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
