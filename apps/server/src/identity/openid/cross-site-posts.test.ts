import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { authorizationRequest, codeFlowTokens } from '../../test/helpers/conformance';
import { CookieJar, issuerOf } from '../../test/helpers/relying-party';
import { openSignInPage, registerApp } from '../../test/helpers/second-factor-sign-in';

// The posts a browser makes with its cookies alone (the hosted sign-in's steps, the sign-out
// confirmation) refuse what another site made it send; the page's own still go through.

let server: TestServer;
let tenant: TenantFixture;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  await registerApp(server, tenant.tenantId);
});
afterAll(() => server?.close());

const CROSS_SITE = { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' };

describe('a sign-in step another site made the browser post', () => {
  it.each([
    ['Fetch Metadata', CROSS_SITE],
    ['a foreign Origin alone', { origin: 'https://attacker.example' }],
  ])('is refused (%s), signing nobody in', async (_how, headers) => {
    const signIn = await openSignInPage(server, tenant.name);
    const post = (extra: Record<string, string>) =>
      signIn.jar.fetch(`${signIn.page}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra },
        body: new URLSearchParams({ username: tenant.adminEmail, password: tenant.password }),
      });
    const forged = await post(headers);
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error: 'access_denied' });
    expect(forged.headers.getSetCookie().some((line) => line.startsWith('_session'))).toBe(false);
    // The page's own post (same origin) still signs in.
    const own = await post({ 'sec-fetch-site': 'same-origin', origin: server.url });
    expect(own.status).toBe(200);
  });
});

describe('a sign-out confirmation another site made the browser post', () => {
  it('is refused with a page in the user’s language, and the session lives', async () => {
    const jar = new CookieJar();
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });
    const logout = `${issuerOf(server, tenant.name)}/protocol/openid-connect/logout`;
    const page = await jar.fetch(`${logout}?id_token_hint=${tokens.id_token}&client_id=spa`);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const forged = await jar.fetch(`${logout}/confirm`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'accept-language': 'fr',
        ...CROSS_SITE,
      },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect(forged.status).toBe(403);
    const html = await forged.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain(`href="/realms/${tenant.name}/protocol/openid-connect/logout"`);
    const silent = await jar.fetch(
      (await authorizationRequest(config, { prompt: 'none' })).url.href,
    );
    expect(new URL(silent.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });
});
