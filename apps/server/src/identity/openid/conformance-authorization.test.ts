import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  REDIRECT,
  authorizationRequest,
  expectErrorPage,
  expectErrorRedirect,
  signedInCallback,
} from '../../test/helpers/conformance';
import { CookieJar, insertClient, issuerOf } from '../../test/helpers/relying-party';
import { digestClientSecret } from './client-secret';

// The authorization endpoint's refusals, after the OpenID Foundation's Basic OP conformance
// modules where one exists. Before the redirect URI is known to be the client's, an error is
// shown on our page and the browser goes nowhere (an open redirector otherwise); after, it
// goes back to the application (RFC 6749 §4.1.2.1) with the issuer (RFC 9207).

let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  other = await createTenant(server.database.db);
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'spa',
    redirectUris: [REDIRECT],
  });
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'web-app',
    type: 'confidential',
    secretDigest: digestClientSecret('web-app-secret-8c2f41d9e07b'),
    redirectUris: [REDIRECT],
  });
  // Registered in the first tenant only.
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'spa-of-a',
    redirectUris: [REDIRECT],
  });
});
afterAll(() => server?.close());

const authorizationUrl = (realm: string, params: Array<[string, string]>) => {
  const url = new URL(`${issuerOf(server, realm)}/protocol/openid-connect/auth`);
  for (const [name, value] of params) url.searchParams.append(name, value);
  return url;
};

/** A valid request's parameters, less or plus some: each case breaks one thing. */
function params(overrides: Record<string, string | undefined> = {}): Array<[string, string]> {
  const base: Record<string, string | undefined> = {
    client_id: 'spa',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: REDIRECT,
    state: 'state-123',
    nonce: 'nonce-456',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...overrides,
  };
  return Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined);
}

const get = (url: URL, jar = new CookieJar()) => jar.fetch(url.href);
/** Where a redirect sends the browser, without its query. */
const landing = (response: Response) => {
  const url = new URL(response.headers.get('location')!, server.url);
  return url.origin + url.pathname;
};
const signInPage = () => new RegExp(`^${server.url}/login-actions/${tenant.name}/`);
const errorBack = (error: string) => ({
  error,
  state: 'state-123',
  iss: issuerOf(server, tenant.name),
});

describe('authorization requests refused on our error page (no redirect)', () => {
  it('oidcc-ensure-redirect-uri-in-authorization-request: without redirect_uri', async () => {
    const response = await get(authorizationUrl(tenant.name, params({ redirect_uri: undefined })));
    await expectErrorPage(response, 'invalid_request');
  });

  it('oidcc-ensure-registered-redirect-uri: an unregistered redirect_uri', async () => {
    const response = await get(
      authorizationUrl(tenant.name, params({ redirect_uri: 'https://attacker.example/cb' })),
    );
    await expectErrorPage(response, 'invalid_redirect_uri');
  });

  it('oidcc-ensure-registered-redirect-uri: a redirect_uri one character off', async () => {
    for (const near of [`${REDIRECT}x`, REDIRECT.replace('callback', 'callbacK'), `${REDIRECT}/`]) {
      const response = await get(authorizationUrl(tenant.name, params({ redirect_uri: near })));
      await expectErrorPage(response, 'invalid_redirect_uri');
    }
  });

  it('an unknown client_id', async () => {
    const response = await get(authorizationUrl(tenant.name, params({ client_id: 'nobody' })));
    await expectErrorPage(response, 'invalid_client');
  });

  it("another tenant's client at this realm", async () => {
    const own = await get(authorizationUrl(tenant.name, params({ client_id: 'spa-of-a' })));
    expect(landing(own)).toMatch(signInPage());
    const response = await get(authorizationUrl(other.name, params({ client_id: 'spa-of-a' })));
    await expectErrorPage(response, 'invalid_client');
  });
});

describe('authorization errors sent back to the registered redirect URI', () => {
  it('response_type=token: unsupported_response_type', async () => {
    const response = await get(authorizationUrl(tenant.name, params({ response_type: 'token' })));
    expectErrorRedirect(response, errorBack('unsupported_response_type'));
  });

  it('a public client without code_challenge: invalid_request', async () => {
    const response = await get(
      authorizationUrl(
        tenant.name,
        params({ code_challenge: undefined, code_challenge_method: undefined }),
      ),
    );
    const back = expectErrorRedirect(response, errorBack('invalid_request'));
    expect(back.get('error_description')).toMatch(/PKCE/);
  });

  it('a confidential client without code_challenge: invalid_request (OAuth 2.1, RFC 9700 §2.1.1)', async () => {
    const response = await get(
      authorizationUrl(
        tenant.name,
        params({
          client_id: 'web-app',
          code_challenge: undefined,
          code_challenge_method: undefined,
        }),
      ),
    );
    const back = expectErrorRedirect(response, errorBack('invalid_request'));
    expect(back.get('error_description')).toMatch(/PKCE/);
  });

  it('code_challenge_method=plain: invalid_request', async () => {
    const response = await get(
      authorizationUrl(
        tenant.name,
        params({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }),
      ),
    );
    const back = expectErrorRedirect(response, errorBack('invalid_request'));
    expect(back.get('error_description')).toMatch(/code_challenge_method/);
  });

  it('oidcc-prompt-none-not-logged-in: login_required', async () => {
    const response = await get(authorizationUrl(tenant.name, params({ prompt: 'none' })));
    expectErrorRedirect(response, errorBack('login_required'));
  });

  it('duplicated parameters (RFC 6749 §3.1): invalid_request', async () => {
    const url = authorizationUrl(tenant.name, [...params(), ['scope', 'openid email']]);
    const response = await get(url);
    const back = expectErrorRedirect(response, errorBack('invalid_request'));
    expect(back.get('error_description')).toMatch(/scope/);
  });
});

describe('sessions and prompts', () => {
  it('oidcc-prompt-login: a live session still gets the sign-in page again', async () => {
    const { jar, config } = await signedInCallback(server, tenant, 'spa');
    // Without prompt the session signs in at once (single sign-on)…
    const silent = await jar.fetch((await authorizationRequest(config)).url.href);
    expect(landing(silent)).toBe(REDIRECT);
    // …with prompt=login the user is asked again.
    const again = await jar.fetch(
      (await authorizationRequest(config, { prompt: 'login' })).url.href,
    );
    expect(landing(again)).toMatch(signInPage());
    const details = await jar.fetch(`${landing(again)}/details`);
    expect(await details.json()).toMatchObject({ prompt: 'login', clientId: 'spa' });
  });
});

describe('prompt=consent', () => {
  it('is answered by signing in, and grants offline_access', async () => {
    const extra = { prompt: 'consent', scope: 'openid offline_access' };
    const { config, callback, request } = await signedInCallback(server, tenant, 'spa', { extra });
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(tokens.scope?.split(' ')).toContain('offline_access');
  });
});

describe('oversize parameters', () => {
  it('a 10,000-character state, nonce or login_hint is refused on the error page, never a 5xx', async () => {
    for (const name of ['state', 'nonce', 'login_hint']) {
      const oversize = params({ [name]: 'x'.repeat(10_000) });
      await expectErrorPage(await get(authorizationUrl(tenant.name, oversize)), 'invalid_request');
      const posted = await fetch(authorizationUrl(tenant.name, []), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(oversize),
        redirect: 'manual',
      });
      await expectErrorPage(posted, 'invalid_request');
    }
    // A long state within the limit is kept, so the limit is where it says.
    const long = await get(authorizationUrl(tenant.name, params({ state: 'x'.repeat(4000) })));
    expect(landing(long)).toMatch(signInPage());
  });
});
