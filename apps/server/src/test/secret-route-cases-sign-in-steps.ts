import { expect } from 'vitest';
import { insertUser } from '../modules/users';
import { enrolTotp, setMfaPolicy, TestPasskey, totpCode } from './helpers/second-factor-sign-in';
import {
  API,
  junkBody,
  keepSecondFactorSecrets,
  secretQuery,
  type Drive,
} from './secret-route-cases';
import { insertClient } from './helpers/relying-party';
import {
  authorize,
  Browser,
  expectStatus,
  formOf,
  FORM,
  logIn,
  pathOf,
  REDIRECT,
  tokenRequest,
} from './secret-route-openid-drive';

type Case = [string, (d: Drive) => Promise<void>];

/**
 * The hosted sign-in page's steps after the password, driven with their secrets: the
 * authenticator app's secret and codes, recovery codes, a passkey's assertion, and the
 * browser's id cookie. Each runs as a user of its own, so the admin the other cases sign in
 * as keeps signing in with the password alone.
 */

const passkey = new TestPasskey();
const browsers = new WeakMap<Drive, { browser: Browser; page: string }>();

/** A member of tenant A with a second factor of each kind, made once. */
const withFactors = new WeakMap<
  Drive,
  Promise<{ email: string; secret: string; codes: string[] }>
>();
function factorUser(d: Drive) {
  let made = withFactors.get(d);
  if (!made) {
    made = (async () => {
      const email = `factors@${d.tenant.domain}`;
      const id = await insertUser(d.server.database.db, {
        tenantId: d.tenant.tenantId,
        email,
        firstName: 'Fia',
        lastName: 'Factors',
        roleId: d.tenant.memberRoleId,
        password: d.admin.password,
      });
      const { secret, recoveryCodes } = await enrolTotp(d.server, {
        id,
        tenantId: d.tenant.tenantId,
      });
      await keepSecondFactorSecrets(d, 'sign-in steps', { secret, recoveryCodes });
      await passkey.register(d.server, { tenantId: d.tenant.tenantId, userId: id });
      return { email, secret, codes: recoveryCodes };
    })();
    withFactors.set(d, made);
  }
  return made;
}

// The tenant's address the page is on, which these requests cannot name as Host, and the
// same-origin fetch of the page's script (the steps refuse posts of other sites).
const origin = (d: Drive) => ({ origin: `http://${d.host}`, 'sec-fetch-site': 'same-origin' });

async function passwordStep(d: Drive, browser: Browser, page: string, email: string) {
  const fields = { username: email, password: d.admin.password };
  const answer = await expectStatus(browser.post(`${page}/login`, fields, { token: '' }), 200);
  return JSON.parse(answer.text) as { next: string };
}

const sendJson = (d: Drive, browser: Browser, path: string, body: unknown) =>
  browser.send('POST', path, { token: '', body, headers: origin(d) });

/** An application of its own, which the admin never allows: its sign-ins ask each time. */
const consentClients = new WeakMap<Drive, Promise<void>>();
async function consentPage(d: Drive) {
  let made = consentClients.get(d);
  if (!made) {
    made = insertClient(d.server.database.db, d.tenant.tenantId, {
      clientId: 'logged-consent',
      redirectUris: [REDIRECT],
    });
    consentClients.set(d, made);
  }
  await made;
  const browser = new Browser(d);
  const { page } = await authorize(d, browser, 'logged-consent');
  const resumed = await expectStatus(browser.send('GET', await logIn(d, browser, page)), 303);
  return { browser, consent: `${pathOf(String(resumed.headers.location))}/consent` };
}

export const signInStepCases: Case[] = [
  [
    'GET /login-actions/:realm/:uid/consent',
    async (d) => {
      const { browser, consent } = await consentPage(d);
      await expectStatus(browser.send('GET', `${consent}${secretQuery(d)}`), 200);
    },
  ],
  [
    'POST /login-actions/:realm/:uid/consent',
    async (d) => {
      const { browser, consent } = await consentPage(d);
      const path = `${consent}${secretQuery(d)}`;
      await expectStatus(browser.send('POST', path, { token: '', body: junkBody(d) }), 400);
      await expectStatus(browser.post(path, { decision: 'deny' }, { token: '' }), 200);
    },
  ],
  [
    'POST /login-actions/:realm/:uid/second-factor',
    async (d) => {
      const user = await factorUser(d);
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      expect(await passwordStep(d, browser, page, user.email)).toMatchObject({
        next: 'second-factor',
      });
      const path = `${page}/second-factor${secretQuery(d)}`;
      await expectStatus(browser.post(path, { code: user.codes[1]!.slice(0, 6) }), 400);
      await expectStatus(browser.send('POST', path, { token: '', body: junkBody(d) }), 400);
      await expectStatus(browser.post(path, { code: totpCode(user.secret) }), 200);
      // The password grant's second factor: a wrong one, then a recovery code.
      const grant = { grant_type: 'password', client_id: 'react-client', username: user.email };
      const form = { ...grant, password: d.admin.password };
      await expectStatus(tokenRequest(d, { ...form, totp: user.codes[2]!.slice(1) }), 400);
      const tokens = await expectStatus(tokenRequest(d, { ...form, totp: user.codes[2]! }), 200);
      const { access_token: access, refresh_token: refresh } = JSON.parse(tokens.text) as Record<
        string,
        string
      >;
      d.secrets.set('second-factor grant access token', access!);
      d.secrets.set('second-factor grant refresh token', refresh!);
    },
  ],
  [
    'POST /login-actions/:realm/:uid/enrol/totp',
    async (d) => {
      const email = `enrols@${d.tenant.domain}`;
      await insertUser(d.server.database.db, {
        tenantId: d.tenant.tenantId,
        email,
        firstName: 'Eno',
        lastName: 'Enrols',
        roleId: d.tenant.memberRoleId,
        password: d.admin.password,
      });
      // Required of everyone for this case and the next only: the others sign in without.
      await setMfaPolicy(d.server, d.tenant.tenantId, 'everyone');
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      expect(await passwordStep(d, browser, page, email)).toEqual({ next: 'enrol' });
      const answer = await expectStatus(
        browser.send('POST', `${page}/enrol/totp${secretQuery(d)}`, {
          token: '',
          body: formOf({}),
          headers: FORM,
        }),
        200,
      );
      const enrolment = JSON.parse(answer.text) as { secret: string; otpauthUri: string };
      const { secret, otpauthUri } = enrolment;
      d.secrets.set('authenticator link on the sign-in page', otpauthUri);
      await keepSecondFactorSecrets(d, 'enrolment on the sign-in page', { secret });
      d.ids.enrolSecret = secret;
      browsers.set(d, { browser, page });
    },
  ],
  [
    'POST /login-actions/:realm/:uid/enrol/totp/confirm',
    async (d) => {
      const { browser, page } = browsers.get(d)!;
      try {
        const path = `${page}/enrol/totp/confirm${secretQuery(d)}`;
        await expectStatus(browser.send('POST', path, { token: '', body: junkBody(d) }), 400);
        const answer = await expectStatus(
          browser.post(path, { code: totpCode(d.ids.enrolSecret!) }),
          200,
        );
        const { recoveryCodes } = JSON.parse(answer.text) as { recoveryCodes: string[] };
        await keepSecondFactorSecrets(d, 'enrolment on the sign-in page', { recoveryCodes });
      } finally {
        await setMfaPolicy(d.server, d.tenant.tenantId, 'optional');
      }
    },
  ],
  [
    'POST /login-actions/:realm/:uid/passkey/options',
    async (d) => {
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      const path = `${page}/passkey/options${secretQuery(d)}`;
      // Not on the tenant's domain: no passkeys there.
      await expectStatus(browser.send('POST', path, { token: '', body: junkBody(d) }), 400);
      await expectStatus(sendJson(d, browser, path, junkBody(d)), 200);
    },
  ],
  [
    'POST /login-actions/:realm/:uid/passkey',
    async (d) => {
      await factorUser(d);
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      const options = await expectStatus(sendJson(d, browser, `${page}/passkey/options`, {}), 200);
      const { challenge } = (JSON.parse(options.text) as { options: { challenge: string } })
        .options;
      const response = passkey.assert({
        challenge,
        rpId: d.tenant.domain,
        origin: origin(d).origin,
        counter: 1,
      });
      const path = `${page}/passkey${secretQuery(d)}`;
      await expectStatus(sendJson(d, browser, path, junkBody(d)), 400);
      await expectStatus(sendJson(d, browser, path, { response }), 200);
      // The same assertion again: its challenge is used up.
      await expectStatus(sendJson(d, browser, path, { response }), 400);
    },
  ],
  [
    'POST /login-actions/:realm/:uid/google',
    async (d) => {
      // As the sign-in screen does: a nonce for this browser, which the credential carries.
      const nonceIn = async (b: Browser) => {
        const answer = await b.send('POST', `${API}/auth/google/nonce`, {
          host: d.host,
          token: '',
        });
        return (JSON.parse(answer.text) as { nonce: string }).nonce;
      };
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      const credential = await d.issuer.idToken({
        email: d.tenant.adminEmail,
        name: 'Ada',
        nonce: await nonceIn(browser),
      });
      const forged = await d.issuer.idToken({ email: d.tenant.adminEmail }, { forged: true });
      d.secrets.set('Google credential on the hosted page', credential);
      d.secrets.set('forged Google credential on the hosted page', forged);
      const google = (b: Browser, at: string, body: unknown) =>
        b.send('POST', `${at}/google${secretQuery(d)}`, { token: '', body });
      await expectStatus(google(browser, page, { credential: forged }), 401);
      await expectStatus(google(browser, page, junkBody(d)), 400);
      const done = await expectStatus(google(browser, page, { credential }), 200);
      expect(JSON.parse(done.text)).toMatchObject({ next: 'done' });
      // Google is a first factor: a user with a second factor is asked for it next, and the
      // API's Google sign-in, which has no such step, refuses them.
      const user = await factorUser(d);
      const other = new Browser(d);
      const second = await d.issuer.idToken({
        email: user.email,
        name: 'Fia',
        nonce: await nonceIn(other),
      });
      d.secrets.set('Google credential of a user with second factors', second);
      const step = await authorize(d, other);
      const asked = await expectStatus(google(other, step.page, { credential: second }), 200);
      expect(JSON.parse(asked.text)).toMatchObject({ next: 'second-factor' });
      const path = `${step.page}/second-factor${secretQuery(d)}`;
      await expectStatus(other.post(path, { code: user.codes[3]! }), 200);
      const viaApi = await d.issuer.idToken({
        email: user.email,
        name: 'Fia',
        nonce: await nonceIn(other),
      });
      d.secrets.set('Google credential of a user with second factors, for the API', viaApi);
      const api = await other.send('POST', `${API}/auth/google${secretQuery(d)}`, {
        host: d.host,
        token: '',
        body: { credential: viaApi },
      });
      expect(api.status, api.text).toBe(403);
    },
  ],
];
