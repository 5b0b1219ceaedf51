import { expect } from 'vitest';
import {
  AUTH_FORM_TOKEN_FIELD,
  AUTH_PAGE_PATHS,
  CONSOLE_SIGN_IN_COOKIE,
} from '@tc/contract/auth-page';
import { HOSTED_SIGN_IN_PATH } from '@tc/contract/links';
import { call, junkBody, secretQuery, type Drive } from './secret-route-cases';
import { formTokenIn } from './fuzz/form-pass';
import { authorize, Browser, expectStatus } from './secret-route-openid-drive';

type Case = [string, (d: Drive) => Promise<void>];

/**
 * The sign-in pages, opened with every secret in their query, and their forms posted without
 * script with passwords, codes and links' tokens: the pages carry what was posted (never a
 * password), the log none of it. The console's sign-in keeps its PKCE verifier in a cookie,
 * which is a secret too.
 */

const PAGE_PASSWORD = 'Blue-horse-battery#58';

const onHost = (d: Drive, method: string, path: string) =>
  call(d, method, path, { host: d.host, token: '' });

/**
 * Posts a page's form as a browser does: the page opened first in that browser, for the form
 * cookie and the token its forms carry (the pages refuse a post without them).
 */
async function postForm(d: Drive, path: string, fields: Record<string, string>) {
  const browser = new Browser(d);
  const options = { host: d.host, token: '', headers: { accept: 'text/html' } };
  const opened = await browser.send('GET', path, options);
  const token = formTokenIn(opened.text) ?? '';
  return browser.post(path, { ...fields, [AUTH_FORM_TOKEN_FIELD]: token }, options);
}

/** A hosted sign-in page's form, posted with the token the opened page carries. */
async function postHosted(browser: Browser, page: string, fields: Record<string, string>) {
  const opened = await browser.send('GET', page, { token: '', headers: { accept: 'text/html' } });
  const token = formTokenIn(opened.text) ?? '';
  return browser.post(page, { ...fields, [AUTH_FORM_TOKEN_FIELD]: token }, { token: '' });
}

function keepConsoleCookie(d: Drive, setCookie: string | string[] | undefined) {
  for (const line of [setCookie ?? []].flat()) {
    const [pair] = line.split(';');
    if (pair?.startsWith(`${CONSOLE_SIGN_IN_COOKIE}=`)) {
      d.secrets.set('console sign-in cookie', pair.slice(CONSOLE_SIGN_IN_COOKIE.length + 1));
    }
  }
}

const pageCases: Case[] = Object.values(AUTH_PAGE_PATHS).map((path) => [
  `GET ${path}`,
  async (d) => {
    const answer = await onHost(d, 'GET', `${path}${secretQuery(d)}`);
    expect(answer.status, answer.text).toBe(200);
  },
]);

export const authPageCases: Case[] = [
  ...pageCases,
  [
    `POST ${AUTH_PAGE_PATHS.signIn}`,
    async (d) => {
      const wrong = d.admin.password.toUpperCase();
      d.secrets.set('wrong password on the console sign-in page', wrong);
      const refused = await postForm(d, AUTH_PAGE_PATHS.signIn, {
        username: d.tenant.adminEmail,
        password: wrong,
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).not.toContain(wrong);
      const junk = await call(d, 'POST', AUTH_PAGE_PATHS.signIn, {
        host: d.host,
        token: '',
        body: junkBody(d),
      });
      expect(junk.status, junk.text).toBeLessThan(500);
      const signedIn = await postForm(d, AUTH_PAGE_PATHS.signIn, {
        username: d.tenant.adminEmail,
        password: d.admin.password,
        remember: 'on',
      });
      expect(signedIn.status, signedIn.text).toBe(303);
      keepConsoleCookie(d, signedIn.headers['set-cookie']);
    },
  ],
  [
    `GET ${HOSTED_SIGN_IN_PATH}`,
    async (d) => {
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      await expectStatus(browser.send('GET', `${page}${secretQuery(d)}`, { token: '' }), 200);
    },
  ],
  [
    `POST ${HOSTED_SIGN_IN_PATH}`,
    async (d) => {
      const browser = new Browser(d);
      const { page } = await authorize(d, browser);
      const wrong = { username: d.tenant.adminEmail, password: `${d.admin.password}x` };
      d.secrets.set('wrong password on the hosted page', wrong.password);
      await expectStatus(postHosted(browser, page, wrong), 400);
      await expectStatus(postHosted(browser, page, { code: '123456' }), 400);
      const right = { username: d.tenant.adminEmail, password: d.admin.password };
      await expectStatus(postHosted(browser, page, right), 303);
    },
  ],
  [
    `POST ${AUTH_PAGE_PATHS.signUp}`,
    async (d) => {
      d.secrets.set('sign-up password on the page', PAGE_PASSWORD);
      const fields = {
        fullName: 'Pat Page',
        email: `pat@${d.tenant.domain}`,
        password: PAGE_PASSWORD,
        repeat: `${PAGE_PASSWORD}x`,
      };
      const refused = await postForm(d, AUTH_PAGE_PATHS.signUp, fields);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).not.toContain(PAGE_PASSWORD);
      const signedUp = await postForm(d, AUTH_PAGE_PATHS.signUp, {
        ...fields,
        repeat: PAGE_PASSWORD,
        terms: 'on',
      });
      expect(signedUp.status, signedUp.text).toBe(200);
    },
  ],
  [
    `POST ${AUTH_PAGE_PATHS.forgotPassword}`,
    async (d) => {
      const sent = await postForm(d, AUTH_PAGE_PATHS.forgotPassword, {
        email: `pat@${d.tenant.domain}`,
      });
      expect(sent.status, sent.text).toBe(200);
    },
  ],
  [
    `POST ${AUTH_PAGE_PATHS.newPassword}`,
    async (d) => {
      const token = d.admin.refresh;
      const differ = await postForm(d, AUTH_PAGE_PATHS.newPassword, {
        token,
        password: PAGE_PASSWORD,
        confirm: d.admin.password,
      });
      expect(differ.status, differ.text).toBe(400);
      expect(differ.text).not.toContain(d.admin.password);
      const stale = await postForm(d, AUTH_PAGE_PATHS.newPassword, {
        token,
        password: PAGE_PASSWORD,
        confirm: PAGE_PASSWORD,
      });
      expect(stale.status, stale.text).toBe(400);
    },
  ],
];
