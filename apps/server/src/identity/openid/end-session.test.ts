import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  REDIRECT,
  authorizationRequest,
  codeFlowTokens,
  expectErrorPage,
  expectErrorRedirect,
} from '../../test/helpers/conformance';
import { CookieJar, insertClient, issuerOf } from '../../test/helpers/relying-party';
import { insertUser } from '../../modules/users';
import { TEST_PASSWORD } from '../../test/harness';

// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) at Keycloak's logout path:
// the browser is asked, the session ends, and it goes back only to a registered address.

const BYE = 'http://localhost:4000/bye';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'spa',
    redirectUris: [REDIRECT],
    postLogoutRedirectUris: [BYE],
    // Allowed the console API, so that an ended session's token is seen to stop there.
    consoleApiAccess: true,
  });
});
afterAll(() => server?.close());

const logoutUrl = (params: Record<string, string>) => {
  const url = new URL(`${issuerOf(server, tenant.name)}/protocol/openid-connect/logout`);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
};

/** The confirmation form of the logout page: where it posts and its hidden fields. */
function confirmationForm(html: string) {
  const form = /<form id="op\.logoutForm" method="post" action="([^"]+)">(.*?)<\/form>/s.exec(html);
  expect(form, 'the logout page has a confirmation form').not.toBeNull();
  const fields = Object.fromEntries(
    [...form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map(
      (match) => [match[1]!, match[2]!],
    ),
  );
  return { action: new URL(form![1]!, server.url).href, fields };
}

describe('end session (RP-initiated logout)', () => {
  it('asks, ends the browser session and goes back to the registered address with state', async () => {
    const jar = new CookieJar();
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });

    const page = await jar.fetch(
      logoutUrl({
        id_token_hint: tokens.id_token!,
        client_id: 'spa',
        post_logout_redirect_uri: BYE,
        state: 'bye-state',
      }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const { action, fields } = confirmationForm(await page.text());
    expect(action).toBe(`${logoutUrl({})}/confirm`);
    expect(fields.xsrf).toEqual(expect.any(String));

    const confirmed = await jar.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, logout: 'yes' }),
    });
    expect(confirmed.status).toBe(303);
    const back = new URL(confirmed.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(BYE);
    expect(back.searchParams.get('state')).toBe('bye-state');

    // The session is gone: prompt=none cannot sign in silently…
    const silent = await jar.fetch(
      (await authorizationRequest(config, { prompt: 'none', state: 'after' })).url.href,
    );
    expectErrorRedirect(silent, {
      error: 'login_required',
      state: 'after',
      iss: issuerOf(server, tenant.name),
    });
    // …and without prompt the sign-in page is shown: no single sign-on any more.
    const again = await jar.fetch((await authorizationRequest(config)).url.href);
    expect(new URL(again.headers.get('location')!, server.url).pathname).toMatch(
      new RegExp(`^/login-actions/${tenant.name}/`),
    );
    // The grant of the session ended with it: its tokens stop at the API.
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(401);
  });

  it('without the xsrf field of the page, the confirmation is refused and the session lives', async () => {
    const jar = new CookieJar();
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });
    const page = await jar.fetch(logoutUrl({ id_token_hint: tokens.id_token!, client_id: 'spa' }));
    const { action } = confirmationForm(await page.text());
    const forged = await jar.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: 'forged', logout: 'yes' }),
    });
    expect(forged.status).toBe(400);
    const silent = await jar.fetch(
      (await authorizationRequest(config, { prompt: 'none' })).url.href,
    );
    expect(new URL(silent.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('an unregistered post_logout_redirect_uri: the error page, no redirect', async () => {
    const jar = new CookieJar();
    const { tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });
    for (const uri of ['https://attacker.example/bye', `${BYE}x`]) {
      const url = logoutUrl({
        id_token_hint: tokens.id_token!,
        client_id: 'spa',
        post_logout_redirect_uri: uri,
        state: 's',
      });
      // A browser, which asks for HTML, gets the error page…
      const page = await jar.fetch(url, { headers: { accept: BROWSER_ACCEPT } });
      await expectErrorPage(page, 'invalid_request');
      // …and a client that asks for anything gets the error as JSON; neither is redirected.
      const json = await jar.fetch(url);
      expect(json.status).toBe(400);
      expect(json.headers.get('location')).toBeNull();
      expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    }
  });
});

/** Whether the logout page submits itself (its script), or waits for the button. */
function submitsItself(page: Response, html: string) {
  const script = html.includes('<script>');
  expect(page.headers.get('content-security-policy')?.includes('script-src') ?? false).toBe(script);
  return script;
}

/** Whether the browser is still signed in: a silent authorization still gets a code. */
async function signedIn(jar: CookieJar, config: Parameters<typeof authorizationRequest>[0]) {
  const silent = await jar.fetch((await authorizationRequest(config, { prompt: 'none' })).url.href);
  return new URL(silent.headers.get('location')!).searchParams.get('code') !== null;
}

describe('forced logout: an ID token that is not this browser’s own sign-in', () => {
  it('with the browser’s own ID token, the page signs out at once', async () => {
    const jar = new CookieJar();
    const { tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });
    const page = await jar.fetch(logoutUrl({ id_token_hint: tokens.id_token!, client_id: 'spa' }));
    expect(submitsItself(page, await page.text())).toBe(true);
  });

  it('with another user’s ID token, the page asks in the user’s language and the session lives until the button', async () => {
    // The attacker signs in as themselves and sends the victim their own ID token as the hint.
    const eveEmail = `eve-${Date.now()}@${tenant.domain}`;
    const eveId = await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email: eveEmail,
      firstName: 'Eve',
      lastName: 'Attacker',
      roleId: tenant.adminRoleId,
      password: TEST_PASSWORD,
    });
    const eve = { ...tenant, adminId: eveId, adminEmail: eveEmail, password: TEST_PASSWORD };
    const attacker = await codeFlowTokens(server, eve, 'spa', { jar: new CookieJar() });

    const jar = new CookieJar();
    const { config } = await codeFlowTokens(server, tenant, 'spa', { jar });
    const page = await jar.fetch(
      logoutUrl({ id_token_hint: attacker.tokens.id_token!, client_id: 'spa' }),
      { headers: { 'accept-language': 'de' } },
    );
    const html = await page.text();
    expect(submitsItself(page, html)).toBe(false);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Von spa abmelden?');
    expect(await signedIn(jar, config)).toBe(true);

    // The victim presses "Sign out": now the session ends.
    const { action, fields } = confirmationForm(html);
    const confirmed = await jar.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, logout: 'yes' }),
    });
    expect(confirmed.status).toBe(303);
    expect(await signedIn(jar, config)).toBe(false);
  });

  it('with the same user’s ID token of an earlier sign-in, the page asks', async () => {
    const jar = new CookieJar();
    const earlier = await codeFlowTokens(server, tenant, 'spa', { jar });
    // A second of the clock later, the browser signs in again (prompt=login): a new sign-in.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await codeFlowTokens(server, tenant, 'spa', { jar, extra: { prompt: 'login' } });
    const page = await jar.fetch(
      logoutUrl({ id_token_hint: earlier.tokens.id_token!, client_id: 'spa' }),
    );
    expect(submitsItself(page, await page.text())).toBe(false);
  });
});

describe('a logout form too large to send on by GET', () => {
  it('is refused in the OAuth shape, never answered with an address no client can read', async () => {
    const response = await fetch(logoutUrl({}), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state: 'x'.repeat(20_000) }),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('a request whose Host header no URL can hold', () => {
  /** Sends the logout request with the given Host header, which fetch would not let through. */
  const withHost = (host: string, cookie: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(logoutUrl({}));
      const sent = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          setHost: false,
          headers: { host, cookie },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        },
      );
      sent.on('error', reject);
      sent.end();
    });

  it('is refused in the OAuth shape, never a server error, even with a live session', async () => {
    const jar = new CookieJar();
    await codeFlowTokens(server, tenant, 'spa', { jar });
    for (const host of ['a b', '']) {
      const answer = await withHost(host, jar.header());
      expect(answer.status, JSON.stringify(host)).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_request' });
    }
  });
});

describe('a parameter that the provider would decode to a NUL', () => {
  it('is refused in the OAuth shape, even where our own decoder leaves it encoded', async () => {
    const jar = new CookieJar();
    await codeFlowTokens(server, tenant, 'spa', { jar });
    // An unpaired surrogate's bytes, then NUL: Fastify's decoder gives up on the whole value,
    // the provider's turns it into U+FFFD and NUL, which PostgreSQL would refuse to store.
    for (const state of ['%ED%A0%80%00', '%00']) {
      const response = await jar.fetch(`${logoutUrl({})}?state=${state}&ui_locales=fr`);
      expect(response.status, state).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request' });
    }
  });
});
