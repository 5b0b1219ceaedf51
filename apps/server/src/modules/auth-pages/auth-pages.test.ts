import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_BOOT_ELEMENT_ID,
  AUTH_FORM_TOKEN_FIELD,
  CONSOLE_SIGN_IN_COOKIE,
  type AuthBoot,
  type ConsoleSignInCookie,
} from '@tc/contract/auth-page';
import { api, createTenant } from '../../test/fixtures';
import { startTestServer, SUPER_ADMIN_PASSWORD, type TestServer } from '../../test/harness';
import { CookieJar } from '../../test/helpers/relying-party';
import {
  enrolTotp,
  finishSignIn,
  openSignInPage,
  registerApp,
  totpCode,
} from '../../test/helpers/second-factor-sign-in';

/**
 * The sign-in pages as the server answers them: each rendered from its state, and each form
 * posted without script doing what the page's script does. A stand-in renderer writes the
 * state's page name into a form; the state itself is read back from the page's boot JSON,
 * which the real page hydrates from (the browser tests render the real pages).
 */

const TEMPLATE =
  '<!doctype html><html lang="en"><head><!--auth-head--></head>' +
  '<body><div id="root"><!--auth-page--></div></body></html>';
const RENDERER = `export function renderAuthPage(state) {
  return { html: '<form method="post">' + state.page + '</form>', texts: { lng: state.language },
    title: 'Page ' + state.page };
}`;

let root: string;
let server: TestServer;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tc-auth-pages-'));
  mkdirSync(join(root, 'dist'));
  mkdirSync(join(root, 'dist-ssr'));
  writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html><title>Console</title>');
  writeFileSync(join(root, 'dist', 'auth.html'), TEMPLATE);
  writeFileSync(join(root, 'dist-ssr', 'auth-render.js'), RENDERER);
  writeFileSync(
    join(root, 'dist-ssr', 'auth-page-assets.json'),
    JSON.stringify({ signIn: ['/assets/sign-in-page-Ab1.js'] }),
  );
  server = await startTestServer({}, { webDist: join(root, 'dist') });
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';

function bootOf(html: string): AuthBoot {
  const start = html.indexOf(`id="${AUTH_BOOT_ELEMENT_ID}">`);
  const end = html.indexOf('</script>', start);
  expect(start).toBeGreaterThan(0);
  return JSON.parse(html.slice(html.indexOf('>', start) + 1, end)) as AuthBoot;
}

async function page(jar: CookieJar, path: string, headers: Record<string, string> = {}) {
  const response = await jar.fetch(`${server.url}${path}`, {
    headers: { accept: BROWSER, ...headers },
  });
  const html = await response.text();
  return { response, html, state: bootOf(html).state };
}

/** The form token of a page, as its form posts it (the browser's form cookie set with it). */
const formToken = async (jar: CookieJar, path: string) => ({
  [AUTH_FORM_TOKEN_FIELD]: (await page(jar, path)).state.formToken ?? '',
});

async function post(jar: CookieJar, path: string, form: Record<string, string>) {
  const token = await formToken(jar, path);
  const response = await jar.fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { accept: BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, ...token }).toString(),
  });
  const html = response.status === 303 ? '' : await response.text();
  return { response, html, state: html ? bootOf(html).state : undefined };
}

describe('a sign-in page', () => {
  it('is rendered with its state, in the language asked for, never stored', async () => {
    const jar = new CookieJar();
    const { response, html, state } = await page(jar, '/login', { 'accept-language': 'de;q=0.9' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    // A sign-in that is done goes on to the application: no form-action to hold it back.
    const policy = response.headers.get('content-security-policy');
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('form-action');
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('<title>Page signIn</title>');
    // The page's own chunks are preloaded with the entry.
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/sign-in-page-Ab1.js">',
    );
    expect(html).toContain('<div id="root"><form method="post">signIn</form></div>');
    expect(state).toMatchObject({ page: 'signIn', url: '/login', language: 'de' });
    expect(state.tenant?.name).toBe('master');
  });

  it('is compressed for the browser, as the build’s files are', async () => {
    const jar = new CookieJar();
    const br = await jar.fetch(`${server.url}/login`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(bootOf(await br.text()).state.page).toBe('signIn');
    const gzip = await jar.fetch(`${server.url}/login`, {
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    const plain = await jar.fetch(`${server.url}/login`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('keeps a language chosen on the page in a cookie, over the browser’s', async () => {
    const jar = new CookieJar();
    expect((await page(jar, '/signup?lang=fr')).state.language).toBe('fr');
    const next = await page(jar, '/forgotpassword', { 'accept-language': 'it' });
    expect(next.state).toMatchObject({ page: 'forgotPassword', language: 'fr' });
    expect((await page(new CookieJar(), '/checkemail?lang=xx')).state.language).toBe('en');
  });

  it('writes posted values into the page as text, whatever they hold', async () => {
    const jar = new CookieJar();
    const tricky = `</script><script>alert(1)</script>$'$&\u2028`;
    const { html, state } = await post(jar, '/forgotpassword', { email: tricky });
    expect(html).not.toContain('<script>alert(1)');
    expect(state?.values?.['email']).toBe(tricky);
  });
});

describe('the console sign-in posted without script', () => {
  it('refuses a wrong password with the step’s error, keeping the address, not the password', async () => {
    const jar = new CookieJar();
    const { response, html, state } = await post(jar, '/login', {
      username: server.config.bootstrapAdminEmail,
      password: 'Wrong-password-1!',
      remember: 'on',
    });
    expect(response.status).toBe(400);
    expect(state).toMatchObject({
      page: 'signIn',
      values: { username: server.config.bootstrapAdminEmail, remember: 'on' },
      error: { kind: 'oauth', error: 'invalid_grant' },
    });
    expect(html).not.toContain('Wrong-password-1!');
  });

  it('signs in and sends the browser on to the callback with a code its cookie can exchange', async () => {
    const jar = new CookieJar();
    const posted = await post(jar, '/login', {
      username: server.config.bootstrapAdminEmail,
      password: SUPER_ADMIN_PASSWORD,
    });
    expect(posted.response.status).toBe(303);
    const cookieLine = posted.response.headers
      .getSetCookie()
      .find((line) => line.startsWith(`${CONSOLE_SIGN_IN_COOKIE}=`));
    expect(cookieLine).toMatch(/; Path=\/; Max-Age=600; SameSite=Lax/);
    const pending = JSON.parse(
      Buffer.from(cookieLine!.split(';')[0]!.split('=')[1]!, 'base64url').toString(),
    ) as ConsoleSignInCookie;
    expect(pending).toMatchObject({ realm: 'master', remember: false });

    const resumed = await jar.fetch(
      new URL(posted.response.headers.get('location')!, server.url).href,
    );
    const callback = new URL(resumed.headers.get('location') ?? '', server.url);
    expect(callback.pathname).toBe('/auth/callback');
    expect(callback.searchParams.get('state')).toBe(pending.state);

    const config = await oidc.discovery(
      new URL(`${server.url}/realms/master`),
      'react-client',
      undefined,
      oidc.None(),
      { execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(200);
    expect((await page(jar, '/auth/callback')).state.page).toBe('callback');
  });
});

describe('an application’s hosted sign-in posted without script', () => {
  it('shows the request’s page, refuses a wrong code, and goes back to the application', async () => {
    const tenant = await createTenant(server.database.db);
    await registerApp(server, tenant.tenantId);
    const { secret } = await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
    const signIn = await openSignInPage(server, tenant.name, undefined, { login_hint: 'x@y.z' });
    const path = new URL(signIn.page).pathname;

    const shown = await page(signIn.jar, path);
    expect(shown.state).toMatchObject({
      page: 'hostedSignIn',
      tenant: { id: tenant.tenantId, name: tenant.name },
      hosted: { realm: tenant.name, loginHint: 'x@y.z', passkeys: false },
    });

    const password = await post(signIn.jar, path, {
      username: tenant.adminEmail,
      password: tenant.password,
    });
    expect(password.state).toMatchObject({
      page: 'hostedSignIn',
      pending: { stepsPath: path, step: { next: 'second-factor' } },
    });

    const wrong = await post(signIn.jar, path, { code: '000000' });
    expect(wrong.response.status).toBe(400);
    expect(wrong.state).toMatchObject({
      error: { kind: 'oauth', error: 'invalid_grant' },
      pending: { stepsPath: path },
    });

    const done = await post(signIn.jar, path, { code: totpCode(secret) });
    expect(done.response.status).toBe(303);
    const tokens = await finishSignIn(signIn, done.response.headers.get('location')!);
    expect(tokens.claims()).toMatchObject({ sub: tenant.adminId });
  });

  it('says when the request has expired', async () => {
    const { state } = await page(new CookieJar(), '/login-actions/master/nothing-here');
    expect(state).toMatchObject({ page: 'hostedSignIn', hosted: { expired: true } });
  });
});

describe('the account forms posted without script', () => {
  it('answers sign-up with the checks the page makes, and the API’s refusal', async () => {
    const jar = new CookieJar();
    const refused = await post(jar, '/signup', {
      fullName: '',
      email: 'not-an-address',
      password: 'Abcdefgh-1!',
      repeat: 'other',
    });
    expect(refused.response.status).toBe(400);
    expect(refused.state?.error).toMatchObject({
      fields: {
        fullName: { code: 'full_name.required' },
        email: { code: 'email.invalid' },
        repeat: { code: 'password.mismatch' },
        terms: { code: 'terms.required' },
      },
    });
    expect(refused.html).not.toContain('Abcdefgh-1!');
    // The master realm takes no sign-ups: the API's own refusal comes back.
    const closed = await post(jar, '/signup', {
      fullName: 'Ann Example',
      email: 'ann@example.com',
      password: 'Abcdefgh-1!',
      repeat: 'Abcdefgh-1!',
      terms: 'on',
    });
    expect(closed.state).toMatchObject({
      page: 'signUp',
      values: { fullName: 'Ann Example', email: 'ann@example.com', terms: 'on' },
      error: { kind: 'problem', code: 'signup.closed' },
    });
  });

  it('answers forgot-password with the check-email page, or the address’s problem', async () => {
    const jar = new CookieJar();
    const sent = await post(jar, '/forgotpassword', { email: 'nobody@example.com' });
    expect(sent.state).toMatchObject({
      page: 'checkEmail',
      values: { email: 'nobody@example.com' },
    });
    const bad = await post(jar, '/forgotpassword', { email: 'nope' });
    expect(bad.state).toMatchObject({
      page: 'forgotPassword',
      error: { kind: 'problem', fields: { email: { code: 'email.invalid' } } },
    });
  });

  it('answers new-password with its checks, the link’s problem, keeping the token', async () => {
    const jar = new CookieJar();
    const differ = await post(jar, '/newpassword', { token: 'abc', password: 'a', confirm: 'b' });
    expect(differ.state).toMatchObject({
      page: 'newPassword',
      values: { token: 'abc' },
      error: { fields: { confirm: { code: 'password.mismatch' } } },
    });
    const token = 'A'.repeat(43);
    const stale = await post(jar, '/newpassword', {
      token,
      password: 'Abcdefgh-1!',
      confirm: 'Abcdefgh-1!',
    });
    expect(stale.state).toMatchObject({ values: { token }, error: { kind: 'problem' } });
  });

  it('answers any text in any field with a page or a 4xx, never a 5xx', async () => {
    const jar = new CookieJar();
    const texts = ['\u0000', '\u202e\ud83d\ude00', 'x'.repeat(5000), '\ud800', '%00'];
    for (const text of texts) {
      for (const path of [
        '/login',
        '/signup',
        '/forgotpassword',
        '/newpassword',
        '/login-actions/master/x',
      ]) {
        const token = await formToken(jar, path);
        const response = await jar.fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { accept: BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            username: text,
            email: text,
            password: text,
            token: text,
            code: text,
            fullName: text,
            ...token,
          }).toString(),
        });
        expect(response.status, `${path} ${JSON.stringify(text)}`).toBeLessThan(500);
      }
    }
  });
});
