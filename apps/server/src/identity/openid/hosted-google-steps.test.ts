import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { api, createTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  GOOGLE_CLIENT_ID,
  googleCredentialIn,
  startTestIssuer,
  type TestIssuer,
} from '../../test/helpers/google-test-issuer';
import { CookieJar } from '../../test/helpers/relying-party';
import {
  enrolTotp,
  finishSignIn,
  openSignInPage,
  passwordStep,
  postJsonStep,
  postStep,
  registerApp,
  setMfaPolicy,
  TestPasskey,
  totpCode,
  type SignInPage,
} from '../../test/helpers/second-factor-sign-in';
import { currentTotpCode } from '../second-factor/totp';

/**
 * Google on the hosted sign-in page is a first factor like the password: a user with an
 * authenticator app or a passkey gives it after Google, and a tenant requiring a second
 * factor has it set up first. Google is played by a local JWKS server.
 */

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

let issuer: TestIssuer;
let server: TestServer;
beforeAll(async () => {
  issuer = await startTestIssuer();
  server = await startTestServer({ GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: issuer.jwksUrl });
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

const db = () => server.database.db;

async function freshTenant() {
  const tenant = await createTenant(db());
  await registerApp(server, tenant.tenantId);
  return tenant;
}

/** Google on the page: the credential bound to a nonce the page asked for in its browser. */
const google = async (page: SignInPage, email: string) => {
  const realm = new URL(page.page).pathname.split('/')[2]!;
  const credential = await googleCredentialIn(server, issuer, {
    jar: page.jar,
    realm,
    claims: { email },
  });
  return postJsonStep(page, '/google', { credential });
};

/** Resuming the request without a result shows the sign-in page again: no code was issued. */
async function expectUnfinished(page: SignInPage, realm: string) {
  const resume = page.page
    .replace('/login-actions/', '/realms/')
    .replace(`/${realm}/`, `/${realm}/protocol/openid-connect/auth/`);
  const resumed = await page.jar.fetch(resume);
  expect(resumed.headers.get('location')).toMatch(`/login-actions/${realm}/`);
}

describe('Sign in with Google, then the second factor', () => {
  it("asks the authenticator app's code, and signs in only with the right one", async () => {
    const tenant = await freshTenant();
    const { secret } = await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
    const page = await openSignInPage(server, tenant.name);
    const first = await google(page, tenant.adminEmail);
    expect(first).toMatchObject({
      status: 200,
      body: { next: 'second-factor', methods: ['totp', 'recovery-code'] },
    });
    expect(first.body.redirectTo).toBeUndefined();
    expect(first.headers.get('cache-control')).toBe('no-store');

    const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(await postStep(page, '/second-factor', { code: wrong })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const done = await postStep(page, '/second-factor', { code: totpCode(secret) });
    expect(done).toMatchObject({ status: 200, body: { next: 'done' } });
    const tokens = await finishSignIn(page, done.body.redirectTo!);
    expect(tokens.claims()).toMatchObject({ sub: tenant.adminId, email: tenant.adminEmail });
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(200);
  });

  it('gives no way back to the application after Google alone', async () => {
    const tenant = await freshTenant();
    await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
    const page = await openSignInPage(server, tenant.name);
    expect((await google(page, tenant.adminEmail)).body).toMatchObject({ next: 'second-factor' });
    await expectUnfinished(page, tenant.name);
  });

  it('offers the passkey of a user who has one, which finishes the sign-in', async () => {
    const tenant = await freshTenant();
    const passkey = new TestPasskey();
    await passkey.register(server, { tenantId: tenant.tenantId, userId: tenant.adminId });
    const page = await openSignInPage(server, tenant.name);
    expect((await google(page, tenant.adminEmail)).body).toEqual({
      next: 'second-factor',
      methods: ['passkey'],
    });

    // The page is on the tenant's domain, the passkeys' relying party.
    const origin = { origin: `http://${tenant.domain}:${new URL(server.url).port}` };
    const options = await postJsonStep(page, '/passkey/options', {}, origin);
    const { challenge } = (options.body as { options: { challenge: string } }).options;
    const response = passkey.assert({
      challenge,
      rpId: tenant.domain,
      origin: origin.origin,
      counter: 1,
    });
    const done = await postJsonStep(page, '/passkey', { response }, origin);
    expect(done).toMatchObject({ status: 200, body: { next: 'done' } });
    expect((await finishSignIn(page, done.body.redirectTo!)).claims()?.sub).toBe(tenant.adminId);
  });
});

describe("Sign in with Google under the tenant's second-factor policy", () => {
  it('sets up the authenticator app the policy requires before signing in', async () => {
    const tenant = await freshTenant();
    await setMfaPolicy(server, tenant.tenantId, 'everyone');
    const page = await openSignInPage(server, tenant.name);
    expect(await google(page, tenant.adminEmail)).toMatchObject({
      status: 200,
      body: { next: 'enrol' },
    });
    expect((await postStep(page, '/second-factor', { code: '000000' })).status).toBe(400);

    const started = await postStep(page, '/enrol/totp');
    const { secret } = started.body as { secret: string };
    const done = await postStep(page, '/enrol/totp/confirm', { code: currentTotpCode(secret) });
    expect(done).toMatchObject({ status: 200, body: { next: 'done' } });
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect((await finishSignIn(page, done.body.redirectTo!)).claims()?.sub).toBe(tenant.adminId);

    // From now on Google is followed by the app's code.
    const next = await openSignInPage(server, tenant.name);
    expect((await google(next, tenant.adminEmail)).body).toMatchObject({ next: 'second-factor' });
  });

  it('requires it of administrators only under "admins": a Member signed up by Google is in', async () => {
    const tenant = await freshTenant();
    await db().update(tenants).set({ allowSignup: true }).where(eq(tenants.id, tenant.tenantId));
    await setMfaPolicy(server, tenant.tenantId, 'admins');
    const admin = await openSignInPage(server, tenant.name);
    expect((await google(admin, tenant.adminEmail)).body).toEqual({ next: 'enrol' });

    const email = `member-by-google@${tenant.domain}`;
    const member = await openSignInPage(server, tenant.name);
    const done = await google(member, email);
    expect(done).toMatchObject({ status: 200, body: { next: 'done' } });
    const [created] = await db()
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenant.tenantId), eq(users.email, email)));
    expect((await finishSignIn(member, done.body.redirectTo!)).claims()?.sub).toBe(created!.id);
  });
});

/** A browser: its cookies, and its user agent on every request. */
class Browser extends CookieJar {
  constructor(readonly userAgent: string) {
    super();
  }

  override fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set('user-agent', this.userAgent);
    return super.fetch(url, { ...init, headers });
  }
}

describe('Sign in with Google from a new browser', () => {
  it('mails the user as after a password, and the session keeps the browser', async () => {
    const tenant = await freshTenant();
    const before = await openSignInPage(server, tenant.name);
    await finishSignIn(before, (await passwordStep(before, tenant)).body.redirectTo!);

    const browser = new Browser(FIREFOX);
    const page = await openSignInPage(server, tenant.name, browser);
    const done = await google(page, tenant.adminEmail);
    expect(done.body).toMatchObject({ next: 'done' });
    // The browser got its id with the Google nonce it asked for before the step.
    expect(browser.header()).toMatch(/(?:^|; )tc_browser=/);
    await finishSignIn(page, done.body.redirectTo!);

    const browserId = /(?:^|; )tc_browser=([^;]*)/.exec(browser.header())![1]!;
    const sessions = (await db().execute(sql`
      select user_agent as "userAgent", browser_hash as "browserHash" from sessions
      where user_id = ${tenant.adminId} order by created_at`)) as unknown as {
      rows: Array<{ userAgent: string | null; browserHash: string | null }>;
    };
    expect(sessions.rows.at(-1)).toEqual({
      userAgent: FIREFOX,
      browserHash: createHash('sha256').update(browserId).digest('base64url'),
    });
    const notices = (await db().execute(sql`
      select count(*)::int as n from mail_outbox
      where to_address = ${tenant.adminEmail} and subject like 'New sign-in to your %'`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(notices.rows[0]!.n).toBe(1);
  });
});
