/**
 * The requests a console sends, built from random choices: pages of a list (page, size, sort,
 * direction, filter, search), single rows, the refresh grant. Each draws from the random
 * stream it is given, so the same stream builds the same requests.
 */
import { permissionPageRequestSchema } from '@tc/contract/permissions-api';
import { projectPageRequestSchema } from '@tc/contract/projects';
import { rolePageRequestSchema } from '@tc/contract/roles';
import { userPageRequestSchema } from '@tc/contract/users';
import type { Answer, Console } from './console';
import { FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS } from './names';

export type Kind = 'list' | 'search' | 'get' | 'edit' | 'refresh';

export interface Op {
  /** What it is, e.g. `users.search`: the report's rows. */
  label: string;
  kind: Kind;
  method: string;
  path: string;
  body?: string;
  /** Looks at a 200 answer (the list's total, an edit's row); returns a problem, if any. */
  after?: (answer: Answer) => string | undefined;
}

export const API = '/api/v1.0';
export type Entity = 'users' | 'roles' | 'permissions' | 'projects';

/** The sort columns the contract allows for each list: the benchmark follows the contract. */
const sortFieldsOf = (schema: {
  shape: { listSort: { unwrap(): { shape: { field: { options: readonly string[] } } } } };
}) => schema.shape.listSort.unwrap().shape.field.options;
export const SORT_FIELDS: Record<Entity, readonly string[]> = {
  users: sortFieldsOf(userPageRequestSchema),
  roles: sortFieldsOf(rolePageRequestSchema),
  permissions: sortFieldsOf(permissionPageRequestSchema),
  projects: sortFieldsOf(projectPageRequestSchema),
};

export const oneOf = <T>(rng: () => number, list: readonly T[]): T =>
  list[Math.floor(rng() * list.length)]!;

/** Draws from weighted choices: [[weight, value], …]. */
export function weighted<T>(rng: () => number, choices: ReadonlyArray<readonly [number, T]>): T {
  const total = choices.reduce((sum, [weight]) => sum + weight, 0);
  let draw = rng() * total;
  for (const [weight, value] of choices) {
    draw -= weight;
    if (draw < 0) return value;
  }
  return choices[choices.length - 1]![1];
}

/** The console's page sizes, the first (10) by far the most used. */
const PAGE_SIZES = [
  [55, 10],
  [25, 25],
  [12, 50],
  [8, 100],
] as const;

/** A piece of a word: 2 letters in 30 % of searches, 3 in 40 %, 4 in 30 %; often lower case. */
export function fragmentOf(rng: () => number, word: string, length?: number): string {
  const letters = [...word];
  const size = Math.min(
    letters.length,
    length ??
      weighted(rng, [
        [3, 2],
        [4, 3],
        [3, 4],
      ] as const),
  );
  const start = Math.floor(rng() * (letters.length - size + 1));
  const piece = letters.slice(start, start + size).join('');
  return rng() < 0.7 ? piece.toLowerCase() : piece;
}

/** What an administrator types into the users search: part of a name, now and then of an address. */
export function userSearch(rng: () => number, length?: number): string {
  const source = rng();
  if (source < 0.45) return fragmentOf(rng, oneOf(rng, FIRST_NAMES), length);
  if (source < 0.9) return fragmentOf(rng, oneOf(rng, LAST_NAMES), length);
  return fragmentOf(rng, oneOf(rng, MAIL_DOMAINS).split('.')[0]!, length);
}

interface PageChoice {
  entity: Entity;
  kind: 'list' | 'search';
  filter: Record<string, string>;
  pageSize?: number;
  sort?: { field: string; direction: 0 | 1 };
  /** Which page: random up to the last the server's count allows, or a deep one near it. */
  depth?: 'any' | 'deep' | 'first';
}

/**
 * A page request. The page is random between 1 and the last page of the total the server gave
 * for this list and filter; a list the console has not seen yet starts at page 1, as in the
 * console.
 */
export function pageOp(c: Console, choice: PageChoice, rng = c.rng): Op {
  const pageSize = choice.pageSize ?? weighted(rng, PAGE_SIZES);
  const key = `${choice.entity}|${JSON.stringify(choice.filter)}`;
  const total = c.totals.get(key);
  const last = total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));
  const depth = choice.depth ?? 'any';
  const pageIndex =
    depth === 'first'
      ? 1
      : depth === 'deep'
        ? Math.max(1, last - Math.floor(rng() * Math.max(1, last / 100)))
        : 1 + Math.floor(rng() * last);
  const listSort = choice.sort ?? {
    field: oneOf(rng, SORT_FIELDS[choice.entity]),
    direction: rng() < 0.5 ? 0 : 1,
  };
  return {
    label: `${choice.entity}.${choice.kind}`,
    kind: choice.kind,
    method: 'POST',
    path: `${API}/${choice.entity}/page`,
    body: JSON.stringify({ pageIndex, pageSize, filter: choice.filter, listSort }),
    after: (answer) => {
      const page = (
        JSON.parse(answer.text) as {
          data: { data: unknown[]; totalCount: number; totalCountIsEstimate?: boolean };
        }
      ).data;
      if (!page.totalCountIsEstimate) c.totals.set(key, page.totalCount);
      const lastNow = Math.ceil(page.totalCount / pageSize);
      if (page.data.length === 0 && pageIndex <= lastNow && !page.totalCountIsEstimate) {
        return 'empty page before the last';
      }
      if (page.data.length > pageSize) return 'more rows than the page size';
      return undefined;
    },
  };
}

export const getOp = (entity: Entity, id: string): Op => ({
  label: `${entity}.get`,
  kind: 'get',
  method: 'GET',
  path: `${API}/${entity}/${id}`,
});

export const REFRESH: Op = {
  label: 'token.refresh',
  kind: 'refresh',
  method: 'POST',
  path: '/realms/…/token',
};
