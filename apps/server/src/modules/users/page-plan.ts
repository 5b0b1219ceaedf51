import type { UserPageRequest } from '@tc/contract/users';
import { COUNT_CAP } from '@tc/contract/paging';
import { isShortFragment } from '../../http/paging';

export type UserStatus = 'active' | 'inactive';

/**
 * The users of one stretch of the list's order that the filter keeps, from user_sort_counts:
 * one bucket of the sort (first character, month of creation or first hex digit of the id),
 * of one status or role for those two sorts. The stretches come in ascending order.
 */
export interface SortStretch {
  bucket: string;
  roleId?: string;
  status?: UserStatus;
  n: number;
}

/**
 * One read of a page along an index: inside one stretch, skipping `offset` of its users and
 * taking `limit`. `reversed` reads from the stretch's far end (against the requested
 * direction), where the page is nearer: no read skips more than half a stretch.
 */
export interface PageRun {
  bucket: string;
  roleId?: string;
  status?: UserStatus;
  reversed: boolean;
  offset: number;
  limit: number;
}

/** The page as reads along the indexes, and the exact total. */
export interface UserPagePlan {
  total: number;
  runs: PageRun[];
}

/**
 * Which rows of consecutive stretches of `sizes` rows hold rows [offset, offset + limit) of
 * their concatenation, each read from its nearer end.
 */
export function splitWindow(sizes: readonly number[], offset: number, limit: number) {
  const parts: Array<{ index: number; offset: number; limit: number; reversed: boolean }> = [];
  let start = 0;
  sizes.forEach((size, index) => {
    const from = Math.max(offset - start, 0);
    const to = Math.min(offset + limit - start, size);
    start += size;
    if (to <= from) return;
    const fromEnd = size - to;
    parts.push(
      fromEnd < from
        ? { index, offset: fromEnd, limit: to - from, reversed: true }
        : { index, offset: from, limit: to - from, reversed: false },
    );
  });
  return parts;
}

/**
 * The plan of a page without a search: the stretches before it are added up, so the page is
 * read inside the one or two stretches it falls in, however deep it is.
 */
export function planUserPage(
  request: UserPageRequest,
  ascending: readonly SortStretch[],
): UserPagePlan {
  const stretches = request.listSort.direction === 1 ? [...ascending].reverse() : ascending;
  const parts = splitWindow(
    stretches.map((stretch) => stretch.n),
    (request.pageIndex - 1) * request.pageSize,
    request.pageSize,
  );
  return {
    total: stretches.reduce((sum, stretch) => sum + stretch.n, 0),
    runs: parts.map(({ index, ...part }) => {
      const { bucket, roleId, status } = stretches[index]!;
      return { bucket, roleId, status, ...part };
    }),
  };
}

/**
 * A random sample of the tenant's users (the first by id within each status, in proportion
 * to the statuses: ids are random): how many there were, how many matched the search, and how
 * many also passed the filter; with the users the filter keeps (`candidates`) and the
 * tenant's users, both exact.
 */
export interface SearchSample {
  size: number;
  search: number;
  kept: number;
  candidates: number;
  tenantRows: number;
}

/**
 * How a search reads its matches. `walk`: along the sort's covering index, testing each user
 * until enough matched (the page, and up to COUNT_CAP + 1 for the count); the denser the
 * matches, the fewer users it reads. `bitmap`: through the trigram indexes, at most
 * COUNT_CAP + 1 matches, sorted if that is all of them; the fewer the matches, the less it
 * reads. Either reads a bounded number of users; the sample says which reads fewer. When the
 * filter keeps at most COUNT_CAP users, walking them is bounded by that; a fragment of neither
 * letters nor digits is always walked.
 */
export function firstSearchRead(request: UserPageRequest, sample: SearchSample): SearchRead {
  // Without a letter or digit the fragment has no trigram: the indexes could only hand over
  // every user.
  if (sample.candidates <= COUNT_CAP || !/[\p{L}\p{N}]/u.test(request.filter.search ?? '')) {
    return 'walk';
  }
  if (request.listSort.field === 'role') return 'bitmap';
  const matches = estimate(sample);
  const walk = walkCost(sample, Math.max(COUNT_CAP + 1, deepest(request)));
  // Users the bitmap hands over until COUNT_CAP + 1 of them also passed the filter.
  const fetched =
    sample.kept === 0
      ? matches.search
      : Math.min(matches.search, ((COUNT_CAP + 1) * sample.search) / sample.kept);
  // A fragment of one or two characters is looked up as the start of any word: the index
  // hands over many more users than match.
  const handed = isShortFragment(request.filter.search ?? '') ? PREFIX_WORDS : 1;
  const bitmap =
    BITMAP_COST +
    matches.search * handed * GIN_COST +
    fetched * FETCH_COST +
    (matches.kept > COUNT_CAP ? nextSearchCost(request, sample) : 0);
  return walk < bitmap ? 'walk' : 'bitmap';
}

export type SearchRead = 'walk' | 'bitmap';

/**
 * How far below its observed share a sample's true share may be before we call the search's
 * matches more than COUNT_CAP: the normal quantile of one chance in two thousand.
 */
const DOUBT = 3.29;

/**
 * Whether the sample leaves no reasonable doubt that more than COUNT_CAP users match the
 * search and the filter: the lower Wilson bound of the share that matched, times the tenant's
 * users. Then there is nothing to count (the page says "more than COUNT_CAP", flagged as an
 * estimate) and only the page is read; a dense search otherwise tests COUNT_CAP + 1 matches.
 */
export function surelyOverCap(sample: SearchSample): boolean {
  const n = sample.size;
  if (n === 0 || sample.kept === 0) return false;
  const share = sample.kept / n;
  const z2 = DOUBT * DOUBT;
  const spread = DOUBT * Math.sqrt((share * (1 - share)) / n + z2 / (4 * n * n));
  const lowest = (share + z2 / (2 * n) - spread) / (1 + z2 / n);
  return lowest * sample.tenantRows > COUNT_CAP;
}

/**
 * The page of a search with more than COUNT_CAP matches, in any order but by role (which is
 * read role by role): along the sort's index (`walk`, only the page), or all matches sorted.
 */
export function nextSearchRead(request: UserPageRequest, sample: SearchSample): 'walk' | 'sort' {
  if (sample.kept === 0) return 'sort';
  return walkCost(sample, deepest(request)) < sortCost(sample) ? 'walk' : 'sort';
}

function nextSearchCost(request: UserPageRequest, sample: SearchSample) {
  return Math.min(sortCost(sample), walkCost(sample, deepest(request)));
}

const deepest = (request: UserPageRequest) => request.pageIndex * request.pageSize;

/** Testing users along the index until `needed` of them matched. */
function walkCost(sample: SearchSample, needed: number) {
  if (sample.kept === 0) return Infinity;
  return ((needed * sample.size) / sample.kept) * TEST_COST;
}

/** Fetching and sorting every match the trigram indexes find. */
const sortCost = (sample: SearchSample) => estimate(sample).search * FETCH_COST;

function estimate(sample: SearchSample) {
  const share = (hits: number) => (sample.tenantRows * hits) / Math.max(sample.size, 1);
  return { search: share(sample.search), kept: share(sample.kept) };
}

/**
 * What reading one user costs, in microseconds, measured on PostgreSQL with a million users:
 * testing one along a covering index; one handed over by the trigram indexes; fetching one
 * from the table and testing it again; and the fixed cost of a lookup in the three indexes.
 * Words starting with a one- or two-letter fragment: about this many per matching user.
 */
const TEST_COST = 0.5;
const GIN_COST = 0.1;
const FETCH_COST = 1.5;
const BITMAP_COST = 5_000;
const PREFIX_WORDS = 4;
