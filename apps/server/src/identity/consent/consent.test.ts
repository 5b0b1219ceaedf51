import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_PATHS } from '@tc/contract/links';
import { CLIENT_ID } from '@tc/contract/permissions';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { authorizationRequest, REDIRECT } from '../../test/helpers/conformance';
import {
  consentAsked,
  CookieJar,
  discover,
  insertClient,
  signInThroughHostedPage,
} from '../../test/helpers/relying-party';

// Consent (OpenID Connect Core §3.1.2.4) through openid-client as the application: a
// third-party application's first code for a user waits for the user's "allow".

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'third',
    redirectUris: [REDIRECT],
  });
});
afterAll(() => server?.close());

const admin = () => ({ username: tenant.adminEmail, password: tenant.password });

/** Follows an authorization request until it stops: at a page of ours or at the application. */
async function landing(jar: CookieJar, url: URL) {
  const response = await jar.fetch(url.href);
  return new URL(response.headers.get('location') ?? '', server.url);
}

async function signInWithPassword(jar: CookieJar, url: URL) {
  const page = await landing(jar, url);
  const login = await jar.fetch(`${page.href}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(admin()).toString(),
  });
  const { redirectTo } = (await login.json()) as { redirectTo: string };
  return landing(jar, new URL(redirectTo));
}

const tokensOf = (
  config: oidc.Configuration,
  callback: URL,
  request: { verifier: string; state?: string | undefined; nonce?: string | undefined },
) =>
  oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });

describe('a third-party application', () => {
  it('shows the consent page, with what it asks for, before any code', async () => {
    const config = await discover(server, tenant.name, 'third');
    const jar = new CookieJar();
    const request = await authorizationRequest(config);
    const page = await signInWithPassword(jar, request.url);
    expect(page.pathname).toMatch(/^\/login-actions\//);
    expect(page.searchParams.get('code')).toBeNull();
    const asked = await jar.fetch(`${page.href}/consent`);
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({
      clientName: 'third',
      scopes: ['openid', 'profile', 'email'],
    });
  });

  it('gets a code once allowed, and none of the page the next time', async () => {
    const config = await discover(server, tenant.name, 'third');
    const jar = new CookieJar();
    const first = await authorizationRequest(config);
    const callback = await signInThroughHostedPage(server, jar, first.url, admin(), 'allow');
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    const tokens = await tokensOf(config, callback, first);
    expect(tokens.claims()?.sub).toBe(tenant.adminId);

    // The browser's session and the consent on record: straight back with a code.
    const again = await authorizationRequest(config);
    const second = await signInThroughHostedPage(server, jar, again.url, undefined, 'refuse-page');
    expect(second.searchParams.get('code')).toEqual(expect.any(String));
    // A new browser signs in with the password, and is not asked again either.
    const elsewhere = await authorizationRequest(config, { scope: 'openid profile' });
    const fewer = await signInThroughHostedPage(
      server,
      new CookieJar(),
      elsewhere.url,
      admin(),
      'refuse-page',
    );
    expect(fewer.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('asks again for more than was allowed', async () => {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId: 'grows',
      redirectUris: [REDIRECT],
    });
    const config = await discover(server, tenant.name, 'grows');
    const jar = new CookieJar();
    const small = await authorizationRequest(config, { scope: 'openid' });
    await signInThroughHostedPage(server, jar, small.url, admin(), 'allow');
    const more = await authorizationRequest(config, { scope: 'openid email' });
    const page = await landing(jar, more.url);
    expect(await consentAsked(jar, page)).toBe(true);
  });

  it('is sent access_denied when the user denies', async () => {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId: 'denied',
      redirectUris: [REDIRECT],
    });
    const config = await discover(server, tenant.name, 'denied');
    const request = await authorizationRequest(config);
    const callback = await signInThroughHostedPage(
      server,
      new CookieJar(),
      request.url,
      admin(),
      'deny',
    );
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
    await expect(tokensOf(config, callback, request)).rejects.toMatchObject({
      error: 'access_denied',
    });
  });
});

describe('a consent another site made the browser post', () => {
  it('is refused (Fetch Metadata, Origin), and nothing is allowed', async () => {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId: 'forged',
      redirectUris: [REDIRECT],
    });
    const config = await discover(server, tenant.name, 'forged');
    const jar = new CookieJar();
    const request = await authorizationRequest(config);
    const page = await signInWithPassword(jar, request.url);
    const forged = await jar.fetch(`${page.href}/consent`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
        origin: 'https://attacker.example',
      },
      body: new URLSearchParams({ decision: 'allow' }).toString(),
    });
    expect(forged.status).toBe(403);
    expect(await consentAsked(jar, page)).toBe(true);
  });
});

describe('withdrawing a consent on the account page', () => {
  it('ends the application’s tokens, and its next sign-in asks again', async () => {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId: 'withdrawn',
      redirectUris: [REDIRECT],
    });
    const config = await discover(server, tenant.name, 'withdrawn');
    const jar = new CookieJar();
    const request = await authorizationRequest(config, { scope: 'openid profile email' });
    const callback = await signInThroughHostedPage(server, jar, request.url, admin(), 'allow');
    const tokens = await tokensOf(config, callback, request);

    const { access_token: console } = await signIn(
      server,
      tenant.name,
      tenant.adminEmail,
      tenant.password,
    );
    const listed = await api(server, '/account/applications', console);
    const { data } = (await listed.json()) as {
      data: Array<{ id: string; name: string; scopes: string[] }>;
    };
    const entry = data.find((row) => row.name === 'withdrawn')!;
    expect(entry.scopes).toEqual(['openid', 'profile', 'email']);

    const withdrawn = await api(server, `/account/applications/${entry.id}`, console, {
      method: 'DELETE',
    });
    expect(withdrawn.status).toBe(200);
    expect(
      (await api(server, `/account/applications/${entry.id}`, console, { method: 'DELETE' }))
        .status,
    ).toBe(404);

    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, tenant.adminId)).rejects.toThrow();
    const again = await authorizationRequest(config);
    expect(await consentAsked(jar, await landing(jar, again.url))).toBe(true);
  });

  it('answers 404 for an application the user never allowed', async () => {
    const { access_token: console } = await signIn(
      server,
      tenant.name,
      tenant.adminEmail,
      tenant.password,
    );
    const none = await api(server, `/account/applications/${crypto.randomUUID()}`, console, {
      method: 'DELETE',
    });
    expect(none.status).toBe(404);
  });
});

describe('a first-party application', () => {
  it('one an administrator marked first-party signs in without the page', async () => {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId: 'own',
      redirectUris: [REDIRECT],
      firstParty: true,
    });
    const config = await discover(server, tenant.name, 'own');
    const request = await authorizationRequest(config);
    const callback = await signInThroughHostedPage(
      server,
      new CookieJar(),
      request.url,
      admin(),
      'refuse-page',
    );
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('the console itself signs in without the page', async () => {
    const config = await discover(server, tenant.name, CLIENT_ID);
    const request = await authorizationRequest(config, {
      redirect_uri: `${server.url}${CONSOLE_CLIENT_PATHS.callback}`,
    });
    const callback = await signInThroughHostedPage(
      server,
      new CookieJar(),
      request.url,
      admin(),
      'refuse-page',
    );
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });
});
