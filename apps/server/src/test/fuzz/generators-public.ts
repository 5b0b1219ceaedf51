import fc from 'fast-check';
import { CLIENT_ID, MASTER_REALM } from '@tc/contract/permissions';
import { anyText, emailAt, idFrom, typedText } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { formBody, fuzzRequest, headers, jsonBody, pathSegment, query } from './http-parts';
import { authPageGenerators } from './generators-auth-pages';
import { bearer } from './generators-entities';
import { openIdGenerators } from './generators-openid';
import { openIdGrants } from './generators-openid-grants';
import type { FuzzWorld } from './world';

/**
 * Generators of the identity provider's routes, the public account routes, and everything
 * else outside the tenant data: identify, files, events, assistant, health, docs, the console.
 */

const API = '/api/v1.0';
const REALMS = '/realms/:realm';

export function publicGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const { tenant, victim } = world;
  const realm = pathSegment(
    fc.constantFrom(tenant.name, tenant.name.toUpperCase(), MASTER_REALM, 'no-such-realm'),
  );
  const realmPath = (rest: string) => realm.map((name) => `/realms/${name}${rest}`);
  const username = fc.oneof(fc.constant(victim.email), emailAt(tenant.domain));
  const password = fc.oneof(fc.constant(victim.password), typedText(20));
  const refreshToken = fc.constantFrom(...victim.refreshTokens);
  const passwordGrant = fc.record(
    {
      client_id: fc.constant(CLIENT_ID),
      grant_type: fc.constant('password'),
      username,
      password,
      // Keycloak's second factor: six digits, or a recovery code, or anything.
      totp: fc.oneof(fc.stringMatching(/^\d{6}$/), typedText(20)),
    },
    { requiredKeys: ['client_id', 'grant_type', 'username', 'password'] },
  );
  const refreshGrant = fc.record({
    client_id: fc.constant(CLIENT_ID),
    grant_type: fc.constant('refresh_token'),
    refresh_token: refreshToken,
  });
  const noHeaders = headers({});
  const inTenant = headers({ 'tenant-id': tenant.tenantId, 'accept-language': 'fr' });
  const token = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/);
  const strongPassword = typedText(20).map((text) => `${text}!Aa1-long`);
  const constant = (path: string) => fc.constant(path);
  const get = (path: fc.Arbitrary<string>, headerValues = noHeaders) =>
    fuzzRequest({ method: 'GET', path, headers: headerValues });
  const grants = openIdGrants(world);
  const chatMessage = fc.record({
    role: fc.constantFrom('user', 'assistant'),
    content: typedText(60),
  });

  return {
    ...openIdGenerators(world),
    ...authPageGenerators(world),
    [`POST ${REALMS}/protocol/openid-connect/token`]: fuzzRequest({
      method: 'POST',
      path: realmPath('/protocol/openid-connect/token'),
      headers: grants.clientAuth,
      body: formBody(
        fc.oneof(
          passwordGrant,
          refreshGrant,
          grants.authorizationCode,
          grants.providerRefresh,
          grants.clientCredentials,
        ),
      ),
    }),
    // A refresh token's logout (ours), or the end of a browser session (the provider's).
    [`POST ${REALMS}/protocol/openid-connect/logout`]: fuzzRequest({
      method: 'POST',
      path: realmPath('/protocol/openid-connect/logout'),
      headers: noHeaders,
      body: formBody(
        fc.oneof(
          fc.record({ client_id: fc.constant(CLIENT_ID), refresh_token: refreshToken }),
          grants.endSession,
        ),
      ),
    }),
    [`GET ${REALMS}/protocol/openid-connect/certs`]: get(
      realmPath('/protocol/openid-connect/certs'),
    ),
    [`GET ${REALMS}/.well-known/openid-configuration`]: get(
      realmPath('/.well-known/openid-configuration'),
    ),

    [`POST ${API}/auth/forgot-password`]: fuzzRequest({
      method: 'POST',
      path: constant(`${API}/auth/forgot-password`),
      headers: inTenant,
      body: jsonBody(fc.record({ email: username })),
    }),
    [`POST ${API}/auth/reset-password`]: fuzzRequest({
      method: 'POST',
      path: constant(`${API}/auth/reset-password`),
      headers: inTenant,
      body: jsonBody(fc.record({ token, password: strongPassword })),
    }),
    [`POST ${API}/auth/signup`]: fuzzRequest({
      method: 'POST',
      path: constant(`${API}/auth/signup`),
      headers: inTenant,
      body: jsonBody(
        fc.record({
          fullName: typedText(30),
          email: emailAt(tenant.domain),
          password: strongPassword,
        }),
      ),
    }),
    [`POST ${API}/auth/verify-email`]: fuzzRequest({
      method: 'POST',
      path: constant(`${API}/auth/verify-email`),
      headers: inTenant,
      body: jsonBody(fc.record({ token })),
    }),
    [`POST ${API}/auth/google/nonce`]: fuzzRequest({
      method: 'POST',
      path: constant(`${API}/auth/google/nonce`),
      headers: fc.oneof(
        headers({ 'tenant-id': tenant.tenantId }),
        headers({ host: tenant.domain }),
        idFrom([tenant.tenantId]).chain((id) => headers({ 'tenant-id': id })),
      ),
    }),
    [`POST ${API}/auth/google`]: fuzzRequest({
      method: 'POST',
      path: constant(`${API}/auth/google`),
      headers: headers({ 'tenant-id': tenant.tenantId }),
      body: jsonBody(
        fc.record({
          credential:
            world.googleCredentials.length > 0
              ? fc.constantFrom(...world.googleCredentials)
              : fc.stringMatching(/^[A-Za-z0-9_-]{20}\.[A-Za-z0-9_-]{40}\.[A-Za-z0-9_-]{40}$/),
        }),
      ),
    }),
    [`GET ${API}/auth/me`]: get(
      constant(`${API}/auth/me`),
      fc.oneof(bearer(world.adminToken), bearer(world.superAdminToken)),
    ),
    [`GET ${API}/tenants/identify`]: get(
      constant(`${API}/tenants/identify`),
      fc.oneof(
        headers({ 'tenant-id': tenant.tenantId }),
        headers({ host: tenant.domain }),
        idFrom([tenant.tenantId]).chain((id) => headers({ 'tenant-id': id })),
      ),
    ),
    [`GET ${API}/files/:id`]: get(
      pathSegment(idFrom(world.fileIds)).map((id) => `${API}/files/${id}`),
      headers({ 'if-none-match': '"x"' }),
    ),
    [`GET ${API}/events`]: fuzzRequest({
      method: 'GET',
      path: constant(`${API}/events`),
      query: query(
        ['access_token', 'lastEventId'],
        fc.oneof(fc.constant(world.adminToken), fc.stringMatching(/^\d{1,20}$/), anyText),
      ),
      headers: fc.oneof(
        bearer(world.adminToken),
        headers({ authorization: `Bearer ${world.adminToken}`, 'last-event-id': '1' }),
        noHeaders,
      ),
      endless: true,
    }),
    [`GET ${API}/assistant`]: get(constant(`${API}/assistant`), bearer(world.adminToken)),
    [`POST ${API}/assistant/chat`]: fuzzRequest({
      method: 'POST',
      path: constant(`${API}/assistant/chat`),
      headers: bearer(world.adminToken),
      body: jsonBody(
        fc
          .tuple(fc.array(chatMessage, { maxLength: 4 }), typedText(60))
          .map(([history, question]) => ({
            messages: [...history, { role: 'user', content: question }],
          })),
      ),
    }),

    'GET /healthz': get(constant('/healthz')),
    'GET /readyz': get(constant('/readyz')),
    'GET /metrics': get(constant('/metrics')),
    'GET /api/docs': get(constant('/api/docs')),
    'GET /api/docs/': get(constant('/api/docs/')),
    'GET /api/docs/json': get(constant('/api/docs/json')),
    'GET /api/docs/yaml': get(constant('/api/docs/yaml')),
    'GET /api/docs/openapi.json': get(constant('/api/docs/openapi.json')),
    'GET /api/docs/static/index.html': get(constant('/api/docs/static/index.html')),
    'GET /api/docs/static/swagger-initializer.js': get(
      constant('/api/docs/static/swagger-initializer.js'),
    ),
    'GET /api/docs/*': get(anyPath('/api/docs/', ['static', 'index.css', 'swagger-ui.css'])),
    'GET /*': get(
      anyPath('/', ['', 'index.html', 'assets', 'dashboard', 'users', 'favicon.ico', '..']),
      headers({ accept: 'text/html', 'accept-encoding': 'br, gzip;q=0.5' }),
    ),
  };
}

/** One to three segments below the prefix, of known names or any text. */
function anyPath(prefix: string, names: string[]) {
  return fc
    .array(pathSegment(fc.oneof(fc.constantFrom(...names), anyText)), {
      minLength: 1,
      maxLength: 3,
    })
    .map((segments) => prefix + segments.join('/'));
}
