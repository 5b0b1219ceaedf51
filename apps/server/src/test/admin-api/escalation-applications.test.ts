import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteSpec } from '@tc/contract/route';
import { apiRoutes } from '@tc/contract/routes/all';
import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import { insertRole } from '../../modules/roles';
import { insertUser } from '../../modules/users';
import { api } from '../fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../harness';
import { authorizationRequest, REDIRECT } from '../helpers/conformance';
import {
  CookieJar,
  discover,
  insertClient,
  signInThroughHostedPage,
} from '../helpers/relying-party';
import { seedTenant, type SeededTenant } from './entities';
import { PERMISSION_SETS, suffix } from './grant-fixtures';

// The escalation matrix's application dimension: a user's token issued to each kind of
// application (first-party or not × allowed the console API or not), for each permission set
// of the matrix, on every console route. An application without console API access gets 401
// everywhere; one with it gets what its user's permissions give, as the console would. No
// request changes what an escalation would change. One code flow (openid-client) per kind and
// set, one request per route.

const KINDS = {
  'third-party': { firstParty: false, consoleApiAccess: false },
  'first-party': { firstParty: true, consoleApiAccess: false },
  'third-party with console API access': { firstParty: false, consoleApiAccess: true },
  'first-party with console API access': { firstParty: true, consoleApiAccess: true },
} as const;

/**
 * Routes outside the contract's table (route-table.test.ts), behind the same guard; the
 * files' route is public (images by unguessable id) and is left out.
 */
const HAND_REGISTERED = [
  'GET /events',
  'POST /assistant/chat',
  'PUT /projects/:id/logo',
  'DELETE /projects/:id/logo',
  'PUT /tenants/:id/logo',
  'DELETE /tenants/:id/logo',
  'POST /users/export',
  'POST /projects/export',
  'POST /audit/export',
  'POST /user-imports',
  'GET /user-imports/:id/result',
];

interface GuardedRoute {
  method: string;
  path: string;
  /** Undefined for a hand-registered route: only its 401 is known here. */
  permission?: RouteSpec['permission'];
}

const ROUTES: GuardedRoute[] = [
  ...Object.values(apiRoutes)
    .flatMap((table) => Object.values(table as Record<string, RouteSpec>))
    .filter((route) => route.permission !== 'public')
    .map(({ method, path, permission }) => ({ method, path, permission })),
  ...HAND_REGISTERED.map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    return { method, path };
  }),
];

/** The guard's refusals: a 403 with another code comes from the route's own rules. */
const GUARD_REFUSALS = ['auth.permission_required', 'auth.super_admin_only'];

let server: TestServer;
let tenant: SeededTenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await seedTenant(server);
  for (const [name, kind] of Object.entries(KINDS)) {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId: clientIdOf(name),
      redirectUris: [REDIRECT],
      ...kind,
    });
  }
});
afterAll(() => server?.close());

const clientIdOf = (kind: string) => kind.replaceAll(' ', '-');

/** A user of its own (so that one kind's account routes never touch another's sessions). */
async function userWith(names: string[]) {
  const email = `app.${suffix()}@example.test`;
  await server.database.db.transaction(async (tx) => {
    const roleId = await insertRole(tx, {
      tenantId: tenant.tenantId,
      name: `Apps ${suffix()}`,
      permissionIds: names.map((name) => tenant.permissionIds.get(name)!),
    });
    await insertUser(tx, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'App',
      lastName: 'User',
      roleId,
      password: TEST_PASSWORD,
    });
  });
  return email;
}

/** The user's access token from the application, through the code flow with openid-client. */
async function applicationToken(clientId: string, username: string) {
  const config = await discover(server, tenant.name, clientId);
  const request = await authorizationRequest(config);
  const callback = await signInThroughHostedPage(server, new CookieJar(), request.url, {
    username,
    password: TEST_PASSWORD,
  });
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
  return tokens.access_token;
}

/** What an escalation could change in the tenant, read as one text to compare. */
async function tenantState() {
  const result = (await server.database.db.execute(sql`
    select json_build_object(
      'users', (select json_agg(json_build_array(id, email, role_id, status) order by id)
        from users where tenant_id = ${tenant.tenantId}),
      'roles', (select json_agg(json_build_array(id, name, status) order by id)
        from roles where tenant_id = ${tenant.tenantId}),
      'grants', (select json_agg(json_build_array(rp.role_id, rp.permission_id)
          order by rp.role_id, rp.permission_id)
        from role_permissions rp join roles r on r.id = rp.role_id
        where r.tenant_id = ${tenant.tenantId}),
      'permissions', (select json_agg(json_build_array(id, name) order by id)
        from permissions where tenant_id = ${tenant.tenantId}),
      'clients', (select json_agg(json_build_array(client_id, redirect_uris, grant_types,
          secret_hash, first_party, console_api_access) order by client_id)
        from clients where tenant_id = ${tenant.tenantId}),
      'service roles', (select json_agg(json_build_array(csr.client_row_id, csr.role_id)
          order by csr.client_row_id, csr.role_id)
        from client_service_roles csr join clients c on c.id = csr.client_row_id
        where c.tenant_id = ${tenant.tenantId})
    )::text as state`)) as unknown as { rows: Array<{ state: string }> };
  return result.rows[0]!.state;
}

/** One request on the route, with a made-up id and an empty body; a stream is not read. */
async function call(route: GuardedRoute, token: string) {
  const path = route.path.replaceAll(/:[A-Za-z]+/g, () => randomUUID());
  const hasBody = route.method === 'POST' || route.method === 'PUT';
  const response = await api(server, path, token, {
    method: route.method,
    ...(hasBody ? { body: '{}' } : {}),
  });
  const type = response.headers.get('content-type') ?? '';
  const problem = type.includes('json')
    ? ((await response.json().catch(() => ({}))) as { code?: string })
    : (await response.body?.cancel(), {});
  return { status: response.status, code: problem.code };
}

/** What the guard must answer this route for a token allowed the console API. */
function refusedByGuard(route: GuardedRoute, held: string[]) {
  const permission = route.permission;
  if (permission === 'super-admin') return true;
  return (SYSTEM_PERMISSIONS as readonly string[]).includes(permission ?? '')
    ? !held.includes(permission!)
    : false;
}

describe.each(Object.entries(PERMISSION_SETS))('applications × %s', (_set, held) => {
  it.each(Object.entries(KINDS))('a %s application', async (name, kind) => {
    const token = await applicationToken(clientIdOf(name), await userWith(held));
    const before = await tenantState();
    const wrong: string[] = [];
    for (const route of ROUTES) {
      const { status, code } = await call(route, token);
      const where = `${route.method} ${route.path}: ${status} ${code ?? ''}`;
      if (!kind.consoleApiAccess) {
        if (status !== 401) wrong.push(where);
      } else if (status === 401) {
        wrong.push(where);
      } else if (route.permission !== undefined) {
        const guardRefused = status === 403 && GUARD_REFUSALS.includes(code ?? '');
        if (guardRefused !== refusedByGuard(route, held)) wrong.push(where);
      }
    }
    expect(wrong).toEqual([]);
    expect(await tenantState()).toBe(before);
  });
});
