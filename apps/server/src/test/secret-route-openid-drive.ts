import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { digestClientSecret } from '../identity/openid/client-secret';
import { CookieJar, insertClient } from './helpers/relying-party';
import type { Answer, SendOptions } from './log-capture';
import { call, COOKIE_SECRET, type Drive } from './secret-route-cases';

/**
 * How the secrets cases drive the OpenID provider as a browser and an application would: the
 * applications they register, a cookie-keeping browser, the sign-in through the hosted page and
 * the code's exchange. Every secret met joins the ones no log line may hold.
 */
export const REALM = '/realms/:realm/protocol/openid-connect';
export const SPA = 'logged-spa';
export const WEB = 'logged-web';
export const REDIRECT = 'http://localhost:4000/callback';
export const BYE = 'http://localhost:4000/bye';
export const WEB_CLIENT_SECRET = 'Web-client-secret-3f9a71c2';
export const WRONG_CLIENT_SECRET = 'Wrong-client-secret-8d21e5';
export const WRONG_VERIFIER = 'wrong-verifier-of-forty-three-characters-x1';

export const formOf = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
export const endpoint = (d: Drive, rest: string) =>
  `/realms/${d.tenant.name}/protocol/openid-connect/${rest}`;
export const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://server');
  return parsed.pathname + parsed.search;
};

export async function expectStatus(answer: Promise<Answer>, status: number): Promise<Answer> {
  const got = await answer;
  expect(got.status, got.text).toBe(status);
  return got;
}

const registered = new WeakMap<Drive, Promise<void>>();
/** The two applications the cases sign in to, registered once per run. */
export function registerApps(d: Drive): Promise<void> {
  let done = registered.get(d);
  if (!done) {
    const { db } = d.server.database;
    d.secrets.set('web client secret', WEB_CLIENT_SECRET);
    d.secrets.set('wrong web client secret', WRONG_CLIENT_SECRET);
    d.secrets.set('wrong code verifier', WRONG_VERIFIER);
    done = (async () => {
      await insertClient(db, d.tenant.tenantId, {
        clientId: SPA,
        redirectUris: [REDIRECT],
        postLogoutRedirectUris: [BYE],
      });
      await insertClient(db, d.tenant.tenantId, {
        clientId: WEB,
        type: 'confidential',
        secretDigest: digestClientSecret(WEB_CLIENT_SECRET),
        redirectUris: [REDIRECT],
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      });
    })();
    registered.set(d, done);
  }
  return done;
}

/** A browser: the provider's cookies (each a secret) kept between requests, and ours sent too. */
export class Browser {
  readonly jar = new CookieJar();

  constructor(private readonly d: Drive) {}

  async send(method: string, path: string, options: SendOptions = {}): Promise<Answer> {
    const cookies = [this.jar.header(), `tc_session=${COOKIE_SECRET}`].filter(Boolean);
    const answer = await call(this.d, method, path, {
      ...options,
      headers: { ...options.headers, cookie: cookies.join('; ') },
    });
    const headers = new Headers();
    for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
      headers.append('set-cookie', line);
      const [pair] = line.split(';');
      const [name, value] = [
        pair!.slice(0, pair!.indexOf('=')),
        pair!.slice(pair!.indexOf('=') + 1),
      ];
      // The interaction cookie holds the interaction's id, which its path shows: not a secret.
      if (value && !name.startsWith('_interaction')) {
        this.d.secrets.set(`provider cookie ${name} ${this.d.secrets.size}`, value);
      }
    }
    this.jar.take(new Response(null, { headers }));
    return answer;
  }

  post(path: string, fields: Record<string, string>, options: SendOptions = {}) {
    return this.send('POST', path, {
      ...options,
      body: formOf(fields),
      headers: { ...FORM, ...options.headers },
    });
  }
}

/** The parameters of an authorization request with PKCE, and its verifier (a secret). */
export function authorizationRequest(d: Drive, client: string) {
  const verifier = randomBytes(32).toString('base64url');
  d.secrets.set(`code verifier ${d.secrets.size}`, verifier);
  const params = {
    client_id: client,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid profile email',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    login_hint: d.tenant.adminEmail,
  };
  return { params, verifier };
}

/** An authorization request; answers the sign-in page's path and the verifier. */
export async function authorize(d: Drive, browser: Browser, client = SPA) {
  await registerApps(d);
  const { params, verifier } = authorizationRequest(d, client);
  const answer = await browser.send('GET', `${endpoint(d, 'auth')}?${formOf(params)}`);
  expect(answer.status, answer.text).toBe(303);
  const page = String(answer.headers.location);
  expect(page).toMatch(`/login-actions/${d.tenant.name}/`);
  return { page: pathOf(page), verifier };
}

/** A form posted to an endpoint the provider serves by GET: sent on by GET with its fields. */
export async function postedAsGet(browser: Browser, path: string, fields: Record<string, string>) {
  const answer = await expectStatus(browser.post(path, fields), 303);
  const location = String(answer.headers.location);
  expect(location).toBe(`${path}?${formOf(fields)}`);
  return browser.send('GET', location);
}

/** The hosted page's sign-in; answers where the browser goes next (the authorization resume). */
export async function logIn(d: Drive, browser: Browser, page: string) {
  const fields = { username: d.tenant.adminEmail, password: d.admin.password, remember: 'on' };
  const answer = await expectStatus(browser.post(`${page}/login`, fields, { token: '' }), 200);
  return pathOf((JSON.parse(answer.text) as { redirectTo: string }).redirectTo);
}

/** The resumed authorization request; answers the code sent to the application. */
export async function codeFrom(d: Drive, browser: Browser, resume: string) {
  let answer = await expectStatus(browser.send('GET', resume), 303);
  // These applications are third parties: the first sign-in of each asks for consent.
  const consent = pathOf(String(answer.headers.location));
  if (consent.startsWith('/login-actions/')) {
    const allowed = await expectStatus(
      browser.post(`${consent}/consent`, { decision: 'allow' }, { token: '' }),
      200,
    );
    const { redirectTo } = JSON.parse(allowed.text) as { redirectTo: string };
    answer = await expectStatus(browser.send('GET', pathOf(redirectTo)), 303);
  }
  const callback = new URL(String(answer.headers.location));
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  const code = callback.searchParams.get('code')!;
  expect(code).toBeTruthy();
  d.secrets.set(`authorization code ${d.secrets.size}`, code);
  return code;
}

/** A sign-in through the hosted page; answers the code and its verifier. */
export async function signedIn(d: Drive, client = SPA, browser = new Browser(d)) {
  const { page, verifier } = await authorize(d, browser, client);
  const code = await codeFrom(d, browser, await logIn(d, browser, page));
  return { code, verifier, browser };
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

export function keepTokens(d: Drive, answer: Answer): Tokens {
  const tokens = JSON.parse(answer.text) as Tokens;
  for (const [name, value] of Object.entries(tokens)) {
    if (typeof value === 'string' && name.endsWith('token')) {
      d.secrets.set(`OpenID ${name} ${d.secrets.size}`, value);
    }
  }
  return tokens;
}

export const tokenRequest = (d: Drive, fields: Record<string, string>, options: SendOptions = {}) =>
  call(d, 'POST', endpoint(d, 'token'), {
    token: '',
    ...options,
    body: formOf(fields),
    headers: { ...FORM, ...options.headers },
  });

/** The whole code flow of the public application: its tokens. */
export async function codeFlowTokens(d: Drive, browser?: Browser) {
  const { code, verifier } = await signedIn(d, SPA, browser);
  const exchange = { grant_type: 'authorization_code', client_id: SPA, code };
  const fields = { ...exchange, redirect_uri: REDIRECT, code_verifier: verifier };
  return keepTokens(d, await expectStatus(tokenRequest(d, fields), 200));
}
