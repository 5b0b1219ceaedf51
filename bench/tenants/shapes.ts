/** The tenant list requests the benchmark measures, and the plans of the queries behind them. */
import type { TenantPageRequest } from '@tc/contract/tenants';
import type { Database } from '../../apps/server/src/db/database';
import { pageTenants } from '../../apps/server/src/modules/tenants/queries';
import { fragmentOf } from './seed';
import { PAGE_SIZE } from './settings';

export interface Shape {
  name: string;
  /** The n-th request of this shape when the list holds `total` tenants. */
  request(n: number, total: number): TenantPageRequest;
}

const FIELDS = ['name', 'domain', 'createdAt'] as const;
const DIRECTIONS = [
  [0, 'asc'],
  [1, 'desc'],
] as const;

const lastPage = (total: number) => Math.max(1, Math.ceil(total / PAGE_SIZE));

export function shapes(small: number): Shape[] {
  const sorted = FIELDS.flatMap((field) =>
    DIRECTIONS.flatMap(([direction, word]) => [
      {
        name: `${field} ${word}`,
        request: () => ({
          pageIndex: 1,
          pageSize: PAGE_SIZE,
          filter: {},
          listSort: { field, direction },
        }),
      },
      {
        name: `${field} ${word}, last page`,
        request: (_n: number, total: number) => ({
          pageIndex: lastPage(total),
          pageSize: PAGE_SIZE,
          filter: {},
          listSort: { field, direction },
        }),
      },
    ]),
  );
  return [
    ...sorted,
    {
      // A fragment of one of the first tenants' names, which exist at both sizes: it finds one
      // tenant (rarely two) in either list, a different one from request to request.
      name: 'search',
      request: (n) => ({
        pageIndex: 1,
        pageSize: PAGE_SIZE,
        filter: { search: fragmentOf(1 + (n % small)) },
        listSort: { field: 'name', direction: 0 },
      }),
    },
  ];
}

/**
 * The request as sent: `listGroup` is accepted and ignored by the list (it answers the same
 * rows), and a counter there makes every request of the run different from every other one, so
 * that no answer is served from one kept or shared for an equal request (the server's answer
 * cache keyed each page on the whole request body; equal requests arriving together may be
 * answered by one reading) while the query stays the shape's.
 */
export const uncached = (request: TenantPageRequest, n: number) => ({
  ...request,
  listGroup: { field: `bench-${n}` },
});

/** Runs pageTenants with a logging Drizzle instance to capture its SQL, then EXPLAINs it. */
export async function explainShapes(
  run: (query: string, params: unknown[]) => Promise<string[]>,
  makeDb: (log: (query: string, params: unknown[]) => void) => Database,
  list: Shape[],
  total: number,
) {
  const plans: Record<string, Array<{ sql: string; plan: string[] }>> = {};
  for (const shape of list) {
    const captured: Array<{ query: string; params: unknown[] }> = [];
    const db = makeDb((query, params) => captured.push({ query, params }));
    await pageTenants({ db, request: shape.request(0, total) } as never);
    plans[shape.name] = [];
    for (const { query, params } of captured) {
      await run(`explain (analyze, buffers) ${query}`, params);
      plans[shape.name]!.push({
        sql: query,
        plan: await run(`explain (analyze, buffers) ${query}`, params),
      });
    }
  }
  return plans;
}
