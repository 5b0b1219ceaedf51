import { expect } from 'vitest';
import { call, junkBody, secretQuery, type Drive } from './secret-route-cases';

type Case = [string, (d: Drive) => Promise<void>];

/**
 * The OpenID provider's routes, driven as a browser and an application drive them: the
 * authorization request, the hosted sign-in page's two calls, the code's exchange, userinfo,
 * introspection, revocation and the end of the session. Every code, code verifier, token, ID
 * token, client secret, session cookie and form token met joins the secrets no line may hold.
 */

import {
  REALM,
  SPA,
  WEB,
  REDIRECT,
  BYE,
  WEB_CLIENT_SECRET,
  WRONG_CLIENT_SECRET,
  WRONG_VERIFIER,
  formOf,
  FORM,
  basic,
  endpoint,
  pathOf,
  expectStatus,
  registerApps,
  Browser,
  authorizationRequest,
  authorize,
  postedAsGet,
  logIn,
  codeFrom,
  signedIn,
  keepTokens,
  tokenRequest,
  codeFlowTokens,
} from './secret-route-openid-drive';

/**
 * The token endpoint's grants that the OpenID provider serves: the code with PKCE (a wrong
 * verifier, the right one, a replay), its refresh tokens (rotated, then the old one again), and
 * a confidential application's secret (in the body, wrong in Basic, right in Basic).
 */
export async function openIdTokenGrants(d: Drive) {
  const { code, verifier } = await signedIn(d);
  const exchange = {
    grant_type: 'authorization_code',
    client_id: SPA,
    code,
    redirect_uri: REDIRECT,
  };
  await expectStatus(tokenRequest(d, { ...exchange, code_verifier: WRONG_VERIFIER }), 400);
  const path = `${endpoint(d, 'token')}${secretQuery(d)}`;
  const first = keepTokens(
    d,
    await expectStatus(
      call(d, 'POST', path, {
        token: '',
        body: formOf({ ...exchange, code_verifier: verifier }),
        headers: FORM,
      }),
      200,
    ),
  );
  await expectStatus(tokenRequest(d, { ...exchange, code_verifier: verifier }), 400);

  const tokens = await codeFlowTokens(d);
  const refresh = { grant_type: 'refresh_token', client_id: SPA };
  const rotated = keepTokens(
    d,
    await expectStatus(tokenRequest(d, { ...refresh, refresh_token: tokens.refresh_token }), 200),
  );
  // The first exchange's refresh token, of a grant its code's replay revoked.
  await expectStatus(tokenRequest(d, { ...refresh, refresh_token: first.refresh_token }), 400);
  await expectStatus(tokenRequest(d, { ...refresh, refresh_token: tokens.refresh_token }), 400);
  expect(rotated.refresh_token).not.toBe(tokens.refresh_token);

  const credentials = { grant_type: 'client_credentials', client_id: WEB };
  const posted = { ...credentials, client_secret: WEB_CLIENT_SECRET };
  // The provider takes the secret in the body too (client_secret_post).
  keepTokens(d, await expectStatus(tokenRequest(d, posted), 200));
  const wrong = { headers: { authorization: basic(WEB, WRONG_CLIENT_SECRET) } };
  await expectStatus(tokenRequest(d, { grant_type: 'client_credentials' }, wrong), 401);
  const right = { headers: { authorization: basic(WEB, WEB_CLIENT_SECRET) } };
  keepTokens(
    d,
    await expectStatus(tokenRequest(d, { grant_type: 'client_credentials' }, right), 200),
  );

  const web = await signedIn(d, WEB);
  const webExchange = { grant_type: 'authorization_code', code: web.code, redirect_uri: REDIRECT };
  const webFields = { ...webExchange, code_verifier: web.verifier };
  keepTokens(d, await expectStatus(tokenRequest(d, webFields, right), 200));
  // The code twice: a repeated parameter is refused before it is read.
  const twice = `${formOf(exchange)}&code=${encodeURIComponent(web.code)}`;
  const repeated = { token: '', body: twice, headers: FORM };
  await expectStatus(call(d, 'POST', endpoint(d, 'token'), repeated), 400);
}

/**
 * RP-initiated logout by a form post (the route is shared with the refresh-token logout): the
 * ID token as the hint, then a hint that is not one.
 */
export async function openIdLogoutByPost(d: Drive) {
  const browser = new Browser(d);
  const tokens = await codeFlowTokens(d, browser);
  const hint = { id_token_hint: tokens.id_token, post_logout_redirect_uri: BYE, state: 'x' };
  await expectStatus(postedAsGet(browser, endpoint(d, 'logout'), hint), 200);
  const bad = { id_token_hint: d.admin.refresh };
  await expectStatus(postedAsGet(browser, endpoint(d, 'logout'), bad), 400);
}

const userinfoCase =
  (method: 'GET' | 'POST'): Case[1] =>
  async (d) => {
    const tokens = await codeFlowTokens(d);
    const path = `${endpoint(d, 'userinfo')}${secretQuery(d)}`;
    await expectStatus(call(d, method, path, { token: tokens.access_token }), 200);
    await expectStatus(call(d, method, path, { token: tokens.refresh_token }), 401);
    if (method === 'POST') {
      const body = formOf({ access_token: tokens.access_token });
      await expectStatus(call(d, 'POST', path, { token: '', body, headers: FORM }), 200);
      const junk = { token: '', body: junkBody(d) };
      const refused = await call(d, 'POST', endpoint(d, 'userinfo'), junk);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
    }
  };

export const openIdCases: Case[] = [
  [
    `GET ${REALM}/auth`,
    async (d) => {
      const browser = new Browser(d);
      await authorize(d, browser);
      // An unknown application: the error page, with every secret in the query.
      const answer = await browser.send('GET', `${endpoint(d, 'auth')}${secretQuery(d)}`);
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
    },
  ],
  [
    `POST ${REALM}/auth`,
    async (d) => {
      await registerApps(d);
      const { params } = authorizationRequest(d, SPA);
      const page = await postedAsGet(new Browser(d), endpoint(d, 'auth'), params);
      expect(page.status).toBe(303);
      expect(page.headers.location).toMatch(`/login-actions/${d.tenant.name}/`);
      const junk = await new Browser(d).send('POST', endpoint(d, 'auth'), { body: junkBody(d) });
      expect(junk.status).toBe(400);
    },
  ],
  [
    'GET /login-actions/:realm/:uid/details',
    async (d) => {
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      const details = await expectStatus(
        browser.send('GET', `${page}/details${secretQuery(d)}`),
        200,
      );
      expect(JSON.parse(details.text)).toMatchObject({ clientId: SPA });
      // Another browser, without the interaction's cookie: the request is refused.
      await expectStatus(new Browser(d).send('GET', `${page}/details`), 400);
    },
  ],
  [
    'POST /login-actions/:realm/:uid/login',
    async (d) => {
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      const login = `${page}/login`;
      const wrong = { username: d.tenant.adminEmail, password: d.admin.password.toUpperCase() };
      d.secrets.set('wrong password on the sign-in page', wrong.password);
      await expectStatus(browser.post(login, wrong), 401);
      await expectStatus(browser.send('POST', login, { body: junkBody(d) }), 400);
      const repeated = `password=${encodeURIComponent(d.admin.password)}&password=x`;
      await expectStatus(browser.send('POST', login, { body: repeated, headers: FORM }), 400);
      await logIn(d, browser, page);
    },
  ],
  [
    `GET ${REALM}/auth/:uid`,
    async (d) => {
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      const resume = await logIn(d, browser, page);
      // Another browser cannot resume it; this one gets the code.
      await expectStatus(new Browser(d).send('GET', `${resume}${secretQuery(d)}`), 400);
      await codeFrom(d, browser, resume);
    },
  ],
  [`GET ${REALM}/userinfo`, userinfoCase('GET')],
  [`POST ${REALM}/userinfo`, userinfoCase('POST')],
  [
    `POST ${REALM}/token/introspect`,
    async (d) => {
      await registerApps(d);
      const tokens = await codeFlowTokens(d);
      const path = `${endpoint(d, 'token/introspect')}${secretQuery(d)}`;
      const as = (secret: string, token: string) => ({
        token: '',
        body: formOf({ token }),
        headers: { ...FORM, authorization: basic(WEB, secret) },
      });
      const active = await expectStatus(
        call(d, 'POST', path, as(WEB_CLIENT_SECRET, tokens.access_token)),
        200,
      );
      expect(JSON.parse(active.text)).toMatchObject({ active: true });
      await expectStatus(call(d, 'POST', path, as(WRONG_CLIENT_SECRET, tokens.access_token)), 401);
      const posted = formOf({
        client_id: WEB,
        client_secret: WEB_CLIENT_SECRET,
        token: tokens.refresh_token,
      });
      const refresh = await expectStatus(
        call(d, 'POST', path, { token: '', body: posted, headers: FORM }),
        200,
      );
      expect(JSON.parse(refresh.text)).toMatchObject({ active: true, token_type: 'refresh_token' });
      await expectStatus(call(d, 'POST', path, { token: '', body: junkBody(d) }), 400);
    },
  ],
  [
    `POST ${REALM}/revoke`,
    async (d) => {
      const tokens = await codeFlowTokens(d);
      const path = `${endpoint(d, 'revoke')}${secretQuery(d)}`;
      const revoke = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
        call(d, 'POST', path, {
          token: '',
          body: formOf(fields),
          headers: { ...FORM, ...headers },
        });
      await expectStatus(revoke({ client_id: SPA, token: tokens.refresh_token }), 200);
      const asWeb = { authorization: basic(WEB, WRONG_CLIENT_SECRET) };
      await expectStatus(revoke({ token: tokens.access_token }, asWeb), 401);
      await expectStatus(call(d, 'POST', path, { token: '', body: junkBody(d) }), 400);
    },
  ],
  [
    `GET ${REALM}/logout`,
    async (d) => {
      const browser = new Browser(d);
      const tokens = await codeFlowTokens(d, browser);
      const hint = { id_token_hint: tokens.id_token, post_logout_redirect_uri: BYE, state: 's' };
      const page = await expectStatus(
        browser.send('GET', `${endpoint(d, 'logout')}?${formOf(hint)}`),
        200,
      );
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.text)?.[1];
      expect(xsrf).toBeTruthy();
      d.secrets.set(`logout form token ${d.secrets.size}`, xsrf!);
      // A hint that is not an ID token, with every secret beside it.
      await expectStatus(browser.send('GET', `${endpoint(d, 'logout')}${secretQuery(d)}`), 400);
    },
  ],
  [
    `POST ${REALM}/logout/confirm`,
    async (d) => {
      const browser = new Browser(d);
      await codeFlowTokens(d, browser);
      const page = await expectStatus(browser.send('GET', endpoint(d, 'logout')), 200);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      d.secrets.set(`logout form token ${d.secrets.size}`, xsrf);
      const wrong = await browser.post(`${endpoint(d, 'logout/confirm')}`, {
        xsrf: 'x',
        logout: 'yes',
      });
      expect(wrong.status).toBe(400);
      const done = await expectStatus(
        browser.post(endpoint(d, 'logout/confirm'), { xsrf, logout: 'yes' }),
        303,
      );
      d.ids.signedOut = pathOf(String(done.headers.location));
      await expectStatus(
        browser.send('POST', endpoint(d, 'logout/confirm'), { body: junkBody(d) }),
        400,
      );
    },
  ],
  [
    `GET ${REALM}/logout/success`,
    async (d) => {
      const page = d.ids.signedOut!;
      expect(page).toContain(endpoint(d, 'logout/success'));
      const query = secretQuery(d);
      const path = page.includes('?') ? `${page}&${query.slice(1)}` : `${page}${query}`;
      await expectStatus(call(d, 'GET', path), 200);
    },
  ],
];

/**
 * A sign-in on the hosted page and a code's exchange while `failing` makes every write to the
 * provider's store fail: the errors carry the interaction's and the tokens' values.
 */
export async function openIdWhileStoreFails(
  d: Drive,
  failing: (run: () => Promise<void>) => Promise<void>,
) {
  const browser = new Browser(d);
  const { page } = await authorize(d, browser);
  const { code, verifier } = await signedIn(d);
  await failing(async () => {
    const fields = { username: d.tenant.adminEmail, password: d.admin.password };
    await expectStatus(browser.post(`${page}/login`, fields, { token: '' }), 500);
    const exchange = { grant_type: 'authorization_code', client_id: SPA, code };
    const request = { ...exchange, redirect_uri: REDIRECT, code_verifier: verifier };
    await expectStatus(tokenRequest(d, request), 500);
  });
}
