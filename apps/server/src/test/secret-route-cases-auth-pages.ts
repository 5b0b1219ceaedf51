import { expect } from 'vitest';
import { AUTH_PAGE_PATHS, CONSOLE_SIGN_IN_COOKIE } from '@tc/contract/auth-page';
import { HOSTED_SIGN_IN_PATH } from '@tc/contract/links';
import { call, junkBody, secretQuery, type Drive } from './secret-route-cases';
import { authorize, Browser, expectStatus, FORM, formOf } from './secret-route-openid-drive';

type Case = [string, (d: Drive) => Promise<void>];

/**
 * The sign-in pages, opened with every secret in their query, and their forms posted without
 * script with passwords, codes and links' tokens: the pages carry what was posted (never a
 * password), the log none of it. The console's sign-in keeps its PKCE verifier in a cookie,
 * which is a secret too.
 */

const PAGE_PASSWORD = 'Blue-horse-battery#58';

const onHost = (d: Drive, method: string, path: string, fields?: Record<string, string>) =>
  call(d, method, path, {
    host: d.host,
    token: '',
    ...(fields ? { body: formOf(fields), headers: { ...FORM, accept: 'text/html' } } : {}),
  });

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
      const refused = await onHost(d, 'POST', AUTH_PAGE_PATHS.signIn, {
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
      const signedIn = await onHost(d, 'POST', AUTH_PAGE_PATHS.signIn, {
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
      await expectStatus(browser.post(page, wrong, { token: '' }), 400);
      await expectStatus(browser.post(page, { code: '123456' }, { token: '' }), 400);
      const right = { username: d.tenant.adminEmail, password: d.admin.password };
      await expectStatus(browser.post(page, right, { token: '' }), 303);
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
      const refused = await onHost(d, 'POST', AUTH_PAGE_PATHS.signUp, fields);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).not.toContain(PAGE_PASSWORD);
      const signedUp = await onHost(d, 'POST', AUTH_PAGE_PATHS.signUp, {
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
      const sent = await onHost(d, 'POST', AUTH_PAGE_PATHS.forgotPassword, {
        email: `pat@${d.tenant.domain}`,
      });
      expect(sent.status, sent.text).toBe(200);
    },
  ],
  [
    `POST ${AUTH_PAGE_PATHS.newPassword}`,
    async (d) => {
      const token = d.admin.refresh;
      const differ = await onHost(d, 'POST', AUTH_PAGE_PATHS.newPassword, {
        token,
        password: PAGE_PASSWORD,
        confirm: d.admin.password,
      });
      expect(differ.status, differ.text).toBe(400);
      expect(differ.text).not.toContain(d.admin.password);
      const stale = await onHost(d, 'POST', AUTH_PAGE_PATHS.newPassword, {
        token,
        password: PAGE_PASSWORD,
        confirm: PAGE_PASSWORD,
      });
      expect(stale.status, stale.text).toBe(400);
    },
  ],
];
