import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_BOOT_ELEMENT_ID,
  AUTH_FORM_TOKEN_FIELD,
  type AuthBoot,
  type AuthPageState,
} from '@tc/contract/auth-page';
import { applicationConsents } from '../../db/schema/consents';
import { mailOutbox } from '../../db/schema/mail';
import { insertUser } from '../users';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, SUPER_ADMIN_PASSWORD, type TestServer } from '../../test/harness';
import { CookieJar } from '../../test/helpers/relying-party';
import {
  enrolTotp,
  openSignInPage,
  registerApp,
  totpCode,
} from '../../test/helpers/second-factor-sign-in';

/**
 * Login CSRF: every form the server renders refuses a post that another site made the
 * browser send — told by the browser (Sec-Fetch-Site, Origin) or by a form token that is not
 * this browser's — with its page saying so (403), and nothing done: nobody signed in, no mail
 * sent. The same post from the page itself, with its token, still works.
 */

let server: TestServer;
let tenant: TenantFixture;
let totpSecret: string;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  await registerApp(server, tenant.tenantId);
  totpSecret = (await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId })).secret;
});
afterAll(() => server?.close());

const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';
const FOREIGN = 'https://attacker.example';

function stateOf(html: string): AuthPageState {
  const start = html.indexOf(`id="${AUTH_BOOT_ELEMENT_ID}">`);
  expect(start, 'the answer is a sign-in page').toBeGreaterThan(0);
  const json = html.slice(html.indexOf('>', start) + 1, html.indexOf('</script>', start));
  return (JSON.parse(json) as AuthBoot).state;
}

/** The page of a form, as the browser shows it: its state holds the form's token. */
async function openForm(jar: CookieJar, path: string) {
  const response = await jar.fetch(`${server.url}${path}`, { headers: { accept: BROWSER } });
  expect(response.status).toBeLessThan(500);
  const state = stateOf(await response.text());
  expect(state.formToken).toEqual(expect.any(String));
  return state.formToken!;
}

function send(
  jar: CookieJar,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string>,
) {
  return jar.fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      accept: BROWSER,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  });
}

const mailTo = async (address: string) =>
  (await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)))
    .length;

/** The browser's sign-in cookies an answer set: the provider's session, the console's own. */
const signInCookies = (response: Response) =>
  response.headers
    .getSetCookie()
    .filter((line) => /^(_session|_interaction_resume|tc_console_signin)[.=]/.test(line));

interface OpenedForm {
  jar: CookieJar;
  path: string;
  fields: Record<string, string>;
}

interface FormCase {
  form: string;
  /** A browser at the form's page, and what its user would fill in. */
  open: () => Promise<OpenedForm>;
  /** What the form's post does when it is the page's own. */
  worked: (response: Response, opened: OpenedForm) => Promise<void>;
  /** What must not have happened after a refused post. */
  nothingDone: (response: Response, opened: OpenedForm) => Promise<void>;
}

const noSignIn = async (response: Response) => {
  expect(signInCookies(response)).toEqual([]);
};

const FORMS: FormCase[] = [
  {
    form: 'the console sign-in',
    open: async () => ({
      jar: new CookieJar(),
      path: '/login',
      fields: { username: server.config.bootstrapAdminEmail, password: SUPER_ADMIN_PASSWORD },
    }),
    worked: async (response) => {
      expect(response.status).toBe(303);
      expect(signInCookies(response)).not.toEqual([]);
    },
    nothingDone: noSignIn,
  },
  {
    form: 'an application’s hosted sign-in',
    open: async () => {
      const signIn = await openSignInPage(server, tenant.name);
      return {
        jar: signIn.jar,
        path: new URL(signIn.page).pathname,
        fields: { username: tenant.adminEmail, password: tenant.password },
      };
    },
    // The admin has an authenticator app: the page asks for its code next.
    worked: async (response) => {
      expect(response.status).toBe(200);
      expect(stateOf(await response.text()).pending?.step.next).toBe('second-factor');
    },
    nothingDone: noSignIn,
  },
  {
    form: 'the second factor',
    open: async () => {
      const signIn = await openSignInPage(server, tenant.name);
      const path = new URL(signIn.page).pathname;
      const token = await openForm(signIn.jar, path);
      const password = await send(
        signIn.jar,
        path,
        { username: tenant.adminEmail, password: tenant.password, [AUTH_FORM_TOKEN_FIELD]: token },
        {},
      );
      expect(stateOf(await password.text()).pending?.step.next).toBe('second-factor');
      return { jar: signIn.jar, path, fields: { code: totpCode(totpSecret) } };
    },
    worked: async (response) => {
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/\/protocol\/openid-connect\/auth\//);
    },
    nothingDone: noSignIn,
  },
  {
    form: 'the consent page',
    open: async () => {
      const { jar, page } = await openSignInPage(server, tenant.name);
      const login = await send(jar, `${new URL(page).pathname}/login`, consenter(), {});
      const { redirectTo } = (await login.json()) as { redirectTo: string };
      const resumed = await jar.fetch(redirectTo);
      const path = new URL(resumed.headers.get('location') ?? '', server.url).pathname;
      const shown = await jar.fetch(`${server.url}${path}`, { headers: { accept: BROWSER } });
      expect(stateOf(await shown.text()).page).toBe('consent');
      return { jar, path, fields: { decision: 'allow' } };
    },
    // Allowed: back into the authorization request, which sends the code.
    worked: async (response) => {
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/\/protocol\/openid-connect\/auth\//);
      expect(await consentsOf(consenterId)).toBe(1);
    },
    nothingDone: async () => {
      expect(await consentsOf(consenterId)).toBe(0);
    },
  },
  {
    form: 'forgot password',
    open: async () => ({
      jar: new CookieJar(),
      path: '/forgotpassword',
      fields: { email: server.config.bootstrapAdminEmail },
    }),
    worked: async (response) => {
      expect(response.status).toBe(200);
      expect(stateOf(await response.text()).page).toBe('checkEmail');
    },
    nothingDone: async () => {
      expect(await mailTo(server.config.bootstrapAdminEmail)).toBe(mailsBefore);
    },
  },
  {
    form: 'sign-up',
    open: async () => ({
      jar: new CookieJar(),
      path: '/signup',
      fields: {
        fullName: 'Mallory Example',
        email: 'mallory@example.com',
        password: 'Abcdefgh-1!',
        repeat: 'Abcdefgh-1!',
        terms: 'on',
      },
    }),
    // The master realm takes no sign-ups: the post reached the API, which said so.
    worked: async (response) => {
      expect(stateOf(await response.text()).error).toMatchObject({ code: 'signup.closed' });
    },
    nothingDone: async () => {
      expect(await mailTo('mallory@example.com')).toBe(0);
    },
  },
  {
    form: 'new password',
    open: async () => ({
      jar: new CookieJar(),
      path: '/newpassword?token=x',
      fields: { token: 'A'.repeat(43), password: 'Abcdefgh-1!', confirm: 'Abcdefgh-1!' },
    }),
    // A link of nobody's: the post reached the API, which refused the link.
    worked: async (response) => {
      expect(response.status).toBe(400);
      expect(stateOf(await response.text()).error?.kind).toBe('problem');
    },
    nothingDone: async () => undefined,
  },
];

let mailsBefore = 0;

/** A user without a second factor, who signs in to the application and meets its consent page. */
let consenterId = '';
const consenter = () => ({ username: `consents@${tenant.domain}`, password: tenant.password });
const consentsOf = async (userId: string) =>
  (
    await server.database.db
      .select()
      .from(applicationConsents)
      .where(eq(applicationConsents.userId, userId))
  ).length;
beforeAll(async () => {
  consenterId = await insertUser(server.database.db, {
    tenantId: tenant.tenantId,
    email: consenter().username,
    firstName: 'Con',
    lastName: 'Sent',
    roleId: tenant.memberRoleId,
    password: tenant.password,
  });
});

/** How another site gets the browser to post: what the browser says, and the token it sends. */
const FORGERIES: Array<{
  how: string;
  headers: Record<string, string>;
  token: (own: string, others: string) => string | undefined;
}> = [
  {
    how: 'from a page of another site (Sec-Fetch-Site), even with the page’s token',
    headers: { 'sec-fetch-site': 'cross-site', origin: FOREIGN },
    token: (own) => own,
  },
  {
    how: 'from another address of the same site (Sec-Fetch-Site: same-site)',
    headers: { 'sec-fetch-site': 'same-site', origin: 'http://other.localhost' },
    token: (own) => own,
  },
  {
    how: 'with another origin and no Fetch Metadata (an older browser)',
    headers: { origin: FOREIGN },
    token: (own) => own,
  },
  { how: 'without a form token', headers: {}, token: () => undefined },
  { how: 'with a made-up form token', headers: {}, token: () => 'forged-token' },
  {
    how: 'with the form token of another browser (the attacker’s own)',
    headers: {},
    token: (_own, others) => others,
  },
];

describe.each(FORMS)('$form', ({ form, open, worked, nothingDone }) => {
  it.each(FORGERIES)('refuses a post $how: its page says so, nothing done', async (forgery) => {
    mailsBefore = await mailTo(server.config.bootstrapAdminEmail);
    const opened = await open();
    const formPath = opened.path.split('?')[0]!;
    const own = await openForm(opened.jar, opened.path);
    const others = await openForm(new CookieJar(), opened.path);
    const token = forgery.token(own, others);
    const fields = token ? { ...opened.fields, [AUTH_FORM_TOKEN_FIELD]: token } : opened.fields;
    const response = await send(opened.jar, formPath, fields, forgery.headers);
    expect(response.status, form).toBe(403);
    await nothingDone(response, opened);
    const page = stateOf(await response.text());
    expect(page.error).toMatchObject({ kind: 'problem', status: 403, code: 'form.cross_site' });
    // The page is the form again, with a token to send it from here.
    expect(page.formToken).toEqual(expect.any(String));
  });

  it('takes the post of its own page, with its token', async () => {
    const opened = await open();
    const token = await openForm(opened.jar, opened.path);
    const response = await send(
      opened.jar,
      opened.path.split('?')[0]!,
      { ...opened.fields, [AUTH_FORM_TOKEN_FIELD]: token },
      { 'sec-fetch-site': 'same-origin', origin: server.url },
    );
    await worked(response, opened);
  });
});
