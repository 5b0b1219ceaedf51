import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, type RouteSpec } from '@tc/contract/route';
import { apiRoutes } from '@tc/contract/routes/all';
import { startTestServer, type TestServer } from '../test/harness';
import { FROM_ROUTE_TABLE } from './register-route';

/**
 * Routes under the API base path that are not JSON in and out, so they stay outside the
 * contract's table: server-sent events, raw image bytes. Keep this list short.
 */
const HAND_REGISTERED = [
  'GET /events',
  'POST /assistant/chat',
  'GET /files/:id',
  'PUT /projects/:id/logo',
  'DELETE /projects/:id/logo',
  'PUT /tenants/:id/logo',
  'DELETE /tenants/:id/logo',
  'POST /users/export',
  'POST /projects/export',
  'POST /audit/export',
  // An import's CSV file, sent raw, and its result, answered as CSV.
  'POST /user-imports',
  'GET /user-imports/:id/result',
];

let server: TestServer;
const registered = new Map<string, boolean>();

beforeAll(async () => {
  server = await startTestServer({}, { onRoute: remember });
});
afterAll(() => server?.close());

function remember(route: RouteOptions) {
  if (!route.url.startsWith(`${API_BASE_PATH}/`)) return;
  const fromTable = route.config?.[FROM_ROUTE_TABLE] === true;
  for (const method of [route.method].flat()) {
    // Fastify adds a HEAD route for every GET route by itself.
    if (method === 'HEAD') continue;
    registered.set(`${method} ${route.url.slice(API_BASE_PATH.length)}`, fromTable);
  }
}

const tableRoutes = Object.values(apiRoutes).flatMap((table) =>
  Object.values(table as Record<string, RouteSpec>).map((route) => `${route.method} ${route.path}`),
);

describe('the route table', () => {
  it('is where every API route comes from, but the few hand-registered ones', () => {
    const outside = [...registered].filter(([, fromTable]) => !fromTable).map(([key]) => key);
    expect(outside.sort()).toEqual([...HAND_REGISTERED].sort());
  });

  it('is registered in full, each route once', () => {
    expect(new Set(tableRoutes).size).toBe(tableRoutes.length);
    for (const key of tableRoutes) expect(registered.get(key), key).toBe(true);
  });

  it('is listed in the OpenAPI document, path and method', async () => {
    const document = (await (await fetch(`${server.url}/api/docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const route of tableRoutes) {
      const [method, path] = route.split(' ') as [string, string];
      const openApiPath = API_BASE_PATH + path.replace(/:(\w+)/g, '{$1}');
      expect(document.paths[openApiPath]?.[method.toLowerCase()], route).toBeDefined();
    }
  });
});
