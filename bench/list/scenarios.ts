/** The user list benchmark's requests, and the plans of the queries the server runs for them. */
import type { Database } from '../../apps/server/src/db/database';
import { pageUsers } from '../../apps/server/src/modules/users/queries';
import { args } from './settings';

export interface Scenario {
  name: string;
  body: object;
  /** A different body for each request (the n-th): no two requests share one reading. */
  vary?: (n: number) => object;
}

export const scenarios = (search: string): Scenario[] => [
  {
    name: 'page 1',
    body: { pageIndex: 1, pageSize: 10, listSort: { field: 'email', direction: 0 } },
  },
  {
    name: 'page 5000',
    body: { pageIndex: 5000, pageSize: 10, listSort: { field: 'email', direction: 0 } },
  },
  {
    name: 'search',
    body: {
      pageIndex: 1,
      pageSize: 10,
      filter: { search },
      listSort: { field: 'email', direction: 0 },
    },
  },
  {
    // Pages 1, 2, 3, … each asked for once: the cost of a page read from the database.
    name: 'uncached pages',
    body: { pageIndex: 1, pageSize: 10, listSort: { field: 'email', direction: 0 } },
    vary: (n) => ({ pageIndex: n + 1, pageSize: 10, listSort: { field: 'email', direction: 0 } }),
  },
];

export const selected = (search: string) =>
  scenarios(search).filter((s) => !args.only || args.only.split(',').includes(s.name));

/** Runs pageUsers with a logging Drizzle instance to capture its SQL, then EXPLAIN ANALYZEs it. */
export async function explainAll(
  run: (query: string, params: unknown[]) => Promise<string[]>,
  makeDb: (log: (query: string, params: unknown[]) => void) => Database,
  tenantId: string,
  search: string,
) {
  const plans: Record<string, Array<{ sql: string; plan: string[] }>> = {};
  for (const scenario of scenarios(search)) {
    const captured: Array<{ query: string; params: unknown[] }> = [];
    const db = makeDb((query, params) => captured.push({ query, params }));
    const request = { filter: {}, ...scenario.body } as Parameters<typeof pageUsers>[0]['request'];
    await pageUsers({ db, caller: { tenantId } as never, request } as never);
    plans[scenario.name] = [];
    for (const { query, params } of captured) {
      // Once to warm the caches, then the measured plan.
      await run(`explain (analyze, buffers) ${query}`, params);
      plans[scenario.name]!.push({
        sql: query,
        plan: await run(`explain (analyze, buffers) ${query}`, params),
      });
    }
  }
  return plans;
}
