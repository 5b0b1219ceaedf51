import { and, eq } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_REALM } from '@tc/contract/permissions';
import { roles, users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { api, createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { authorizationRequest, REDIRECT } from '../../test/helpers/conformance';
import {
  GOOGLE_CLIENT_ID,
  googleCredentialIn,
  startTestIssuer,
  type TestIssuer,
} from '../../test/helpers/google-test-issuer';
import { CookieJar, discover, insertClient } from '../../test/helpers/relying-party';

/**
 * "Sign in with Google" on the hosted sign-in page: the page posts Google's ID token to
 * `/login-actions/{realm}/{uid}/google`, which signs the account in by the console's Google
 * rules and finishes the application's sign-in request as the password step does.
 */

let issuer: TestIssuer;
let server: TestServer;
let tenant: TenantFixture;
let openTenant: TenantFixture;

const db = () => server.database.db;

beforeAll(async () => {
  issuer = await startTestIssuer();
  server = await startTestServer({ GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: issuer.jwksUrl });
  tenant = await createTenant(db());
  openTenant = await createTenant(db());
  await db().update(tenants).set({ allowSignup: true }).where(eq(tenants.id, openTenant.tenantId));
  for (const { tenantId } of [tenant, openTenant]) {
    // Allowed the console API: the test reads the signed-in user back through it. First-party,
    // so no consent page stands between the sign-in and the code (consent is tested apart).
    const spa = {
      clientId: 'spa',
      redirectUris: [REDIRECT],
      consoleApiAccess: true,
      firstParty: true,
    };
    await insertClient(db(), tenantId, spa);
  }
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

/** An application's authorization request, followed to the hosted sign-in page. */
async function openSignInPage(on: TestServer, realm: string) {
  const config = await discover(on, realm, 'spa');
  const jar = new CookieJar();
  const request = await authorizationRequest(config);
  const answer = await jar.fetch(request.url.href);
  const page = new URL(answer.headers.get('location') ?? '', on.url);
  expect(page.pathname).toMatch(new RegExp(`^/login-actions/${realm}/`));
  return { config, jar, request, page: page.href };
}

type Page = Awaited<ReturnType<typeof openSignInPage>>;

async function postJson(jar: CookieJar, url: string, body: unknown) {
  const response = await jar.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { response, body: (await response.json()) as Record<string, string> };
}

/** Google's credential for this page's browser and realm, bound to a nonce the page asked for. */
const credentialFor = (page: Page, realm: string, claims: JWTPayload) =>
  googleCredentialIn(server, issuer, { jar: page.jar, realm, claims });

const googleSignIn = async (page: Page, credential: string) =>
  postJson(page.jar, `${page.page}/google`, { credential });

/** Follows the page's answer back to the application and exchanges the code. */
async function finish(page: Page, redirectTo: string) {
  const resumed = await page.jar.fetch(redirectTo);
  const callback = new URL(resumed.headers.get('location') ?? '');
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  return oidc.authorizationCodeGrant(page.config, callback, {
    pkceCodeVerifier: page.request.verifier,
    expectedState: page.request.state,
    expectedNonce: page.request.nonce,
  });
}

async function userOf(tenantId: string, email: string) {
  const [row] = await db()
    .select({ id: users.id, role: roles.name, emailVerified: users.emailVerified })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)));
  return row;
}

describe('Sign in with Google on the hosted sign-in page', () => {
  it('completes the code flow for an existing user, whose tokens work on the API', async () => {
    const page = await openSignInPage(server, tenant.name);
    const credential = await credentialFor(page, tenant.name, {
      email: tenant.adminEmail.toUpperCase(),
    });
    const { response, body } = await googleSignIn(page, credential);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = await finish(page, body.redirectTo!);
    expect(tokens.claims()).toMatchObject({ sub: tenant.adminId, email: tenant.adminEmail });
    const me = await api(server, '/auth/me', tokens.access_token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { id: string } }).data.id).toBe(tenant.adminId);
  });

  it('signs a new Google user up as a Member where the tenant takes sign-ups', async () => {
    const email = `new-google@${openTenant.domain}`;
    const page = await openSignInPage(server, openTenant.name);
    const claims = { email, given_name: 'Gia', family_name: 'Google' };
    const credential = await credentialFor(page, openTenant.name, claims);
    const { response, body } = await googleSignIn(page, credential);
    expect(response.status).toBe(200);
    const created = await userOf(openTenant.tenantId, email);
    expect(created).toMatchObject({ role: 'Member', emailVerified: true });
    const tokens = await finish(page, body.redirectTo!);
    expect(tokens.claims()).toMatchObject({ sub: created!.id, email, given_name: 'Gia' });
  });

  it('refuses a new Google user where the tenant takes no sign-ups (403, no redirect)', async () => {
    const email = `stranger@${tenant.domain}`;
    const page = await openSignInPage(server, tenant.name);
    const credential = await credentialFor(page, tenant.name, { email });
    const { response, body } = await googleSignIn(page, credential);
    expect(response.status).toBe(403);
    expect(body).toMatchObject({ error: 'access_denied', error_description: expect.any(String) });
    expect(body.redirectTo).toBeUndefined();
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(await userOf(tenant.tenantId, email)).toBeUndefined();
  });

  it('refuses a bad credential with 401; the password still completes the request', async () => {
    const page = await openSignInPage(server, tenant.name);
    const forged = await issuer.idToken({ email: tenant.adminEmail }, { forged: true });
    const refused = await googleSignIn(page, forged);
    expect(refused.response.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'invalid_grant' });
    const junk = await postJson(page.jar, `${page.page}/google`, { credential: 17 });
    expect(junk.response.status).toBe(400);
    expect(junk.body).toMatchObject({ error: 'invalid_request' });

    const login = await page.jar.fetch(`${page.page}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: tenant.adminEmail, password: tenant.password }),
    });
    expect(login.status).toBe(200);
    const tokens = await finish(page, ((await login.json()) as { redirectTo: string }).redirectTo);
    expect(tokens.claims()?.sub).toBe(tenant.adminId);
  });

  it('answers an unknown or foreign sign-in request as the password step does', async () => {
    const page = await openSignInPage(server, tenant.name);
    const credential = await issuer.idToken({ email: tenant.adminEmail });
    const unknown = page.page.replace(/[^/]+$/, 'no-such-interaction');
    const form = { username: tenant.adminEmail, password: tenant.password };
    const login = await page.jar.fetch(`${unknown}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    const loginBody = await login.json();
    expect(login.status).toBe(400);
    const google = await postJson(page.jar, `${unknown}/google`, { credential });
    expect(google.response.status).toBe(400);
    expect(google.body).toEqual(loginBody);
    // Another browser, without the request's cookie.
    const foreign = await postJson(new CookieJar(), `${page.page}/google`, { credential });
    expect(foreign.response.status).toBe(400);
    expect(foreign.body).toEqual(loginBody);
  });

  it('refuses the master realm: super administrators sign in with their password', async () => {
    const [master] = await db().select().from(tenants).where(eq(tenants.isMaster, true));
    await insertClient(db(), master!.id, { clientId: 'spa', redirectUris: [REDIRECT] });
    const page = await openSignInPage(server, MASTER_REALM);
    const email = server.config.bootstrapAdminEmail;
    const credential = await credentialFor(page, MASTER_REALM, { email });
    const { response, body } = await googleSignIn(page, credential);
    expect(response.status).toBe(403);
    expect(body).toMatchObject({ error: 'access_denied' });
    expect(body.redirectTo).toBeUndefined();
  });
});

describe('Sign in with Google on the hosted page of a server without Google', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(() => plain?.close());

  it('answers 404 in the OAuth shape, whatever is sent', async () => {
    const other = await createTenant(plain.database.db);
    await insertClient(plain.database.db, other.tenantId, {
      clientId: 'spa',
      redirectUris: [REDIRECT],
    });
    const page = await openSignInPage(plain, other.name);
    const credential = await issuer.idToken({ email: other.adminEmail });
    for (const body of [{ credential }, { credential: 17 }]) {
      const answer = await postJson(page.jar, `${page.page}/google`, body);
      expect(answer.response.status).toBe(404);
      expect(answer.body).toMatchObject({ error: 'invalid_request' });
      expect(answer.response.headers.get('cache-control')).toContain('no-store');
    }
  });
});
