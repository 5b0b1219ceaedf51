import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import type { TenantFixture } from '../fixtures';
import type { TestServer } from '../harness';
import { CookieJar, discover, signInThroughHostedPage } from './relying-party';

/** The redirect URI every conformance client registers. */
export const REDIRECT = 'http://localhost:4000/callback';

/**
 * A code-flow authorization request with PKCE, state and nonce, as a conformant RP sends it;
 * an empty value in `extra` leaves that parameter out.
 */
export async function authorizationRequest(
  config: oidc.Configuration,
  extra: Record<string, string> = {},
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const params: Record<string, string> = {
    redirect_uri: REDIRECT,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    ...extra,
  };
  const sent = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
  const url = oidc.buildAuthorizationUrl(config, sent);
  return { url, verifier, state: sent.state, nonce: sent.nonce };
}

/** Signs the tenant's admin in on the hosted page; answers the callback with its code. */
export async function signedInCallback(
  server: TestServer,
  tenant: TenantFixture,
  clientId: string,
  options: { jar?: CookieJar; extra?: Record<string, string>; secret?: string } = {},
) {
  const config = await discover(server, tenant.name, clientId, options.secret);
  const jar = options.jar ?? new CookieJar();
  const request = await authorizationRequest(config, options.extra);
  const callback = await signInThroughHostedPage(server, jar, request.url, {
    username: tenant.adminEmail,
    password: tenant.password,
  });
  return { config, jar, request, callback, code: callback.searchParams.get('code')! };
}

/** The whole code flow through openid-client: tokens, with the ID token's nonce checked. */
export async function codeFlowTokens(
  server: TestServer,
  tenant: TenantFixture,
  clientId: string,
  options: { jar?: CookieJar; extra?: Record<string, string>; secret?: string } = {},
) {
  const flow = await signedInCallback(server, tenant, clientId, options);
  const tokens = await oidc.authorizationCodeGrant(flow.config, flow.callback, {
    pkceCodeVerifier: flow.request.verifier,
    expectedState: flow.request.state,
    expectedNonce: flow.request.nonce,
  });
  return { ...flow, tokens };
}

/** A raw form POST to a realm endpoint, for requests a conformant RP would never send. */
export function postForm(
  server: TestServer,
  realm: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${server.url}/realms/${realm}/protocol/openid-connect${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
    redirect: 'manual',
  });
}

export const basicAuth = (clientId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(
    `${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`,
  ).toString('base64')}`,
});

/** The claims of a JWT, unverified: for tests that look at what a token says. */
export const claimsOf = (jwt: string) => decodeJwt(jwt);

/**
 * A refused authorization request that must not go back to the application: an HTML error
 * page naming the error, status 400, and no Location header (nowhere to be redirected).
 */
export async function expectErrorPage(response: Response, error: string) {
  expect(response.status).toBe(400);
  expect(response.headers.get('location')).toBeNull();
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await response.text()).toContain(error);
}

/** An error sent back to the redirect URI (RFC 6749 §4.1.2.1) with the issuer (RFC 9207). */
export function expectErrorRedirect(
  response: Response,
  expected: { error: string; state: string; iss: string },
) {
  // The provider answers a redirect with 303 (See Other), so a POSTed request becomes a GET.
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.origin + location.pathname).toBe(REDIRECT);
  const params = location.hash
    ? new URLSearchParams(location.hash.slice(1))
    : location.searchParams;
  expect(params.get('code')).toBeNull();
  expect(params.get('error')).toBe(expected.error);
  expect(params.get('error_description')).toEqual(expect.any(String));
  expect(params.get('state')).toBe(expected.state);
  expect(params.get('iss')).toBe(expected.iss);
  return params;
}

/** Sets which algorithm a client's ID tokens are signed with. */
export async function setIdTokenAlgorithm(
  server: TestServer,
  tenantId: string,
  clientId: string,
  alg: 'RS256' | 'ES256',
) {
  await server.database.db.execute(sql`
    update clients set id_token_signed_response_alg = ${alg}
    where tenant_id = ${tenantId} and client_id = ${clientId}`);
}
