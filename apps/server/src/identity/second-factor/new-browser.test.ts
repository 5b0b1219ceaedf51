import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { CookieJar } from '../../test/helpers/relying-party';
import {
  finishSignIn,
  openSignInPage,
  passwordStep,
  registerApp,
} from '../../test/helpers/second-factor-sign-in';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';

/**
 * Sessions show where they came from, and a sign-in from a browser none of the user's
 * sessions came from is mailed to the user (not the very first sign-in).
 */

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let smtp: TestSmtpServer;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
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

  /** The browser id cookie's value, as its SHA-256 is kept. */
  browserHash() {
    const id = /(?:^|; )tc_browser=([^;]*)/.exec(this.header())?.[1];
    return id ? createHash('sha256').update(id).digest('base64url') : undefined;
  }
}

async function freshTenant() {
  const tenant = await createTenant(server.database.db);
  await registerApp(server, tenant.tenantId);
  return tenant;
}

/** The whole code flow in `browser`; the token request itself comes from openid-client. */
async function hostedSignIn(tenant: TenantFixture, browser: Browser) {
  // prompt=login: a browser already signed in is asked again, as after signing out.
  const page = await openSignInPage(server, tenant.name, browser, { prompt: 'login' });
  const password = await passwordStep(page, tenant);
  expect(password.body).toMatchObject({ next: 'done' });
  await finishSignIn(page, password.body.redirectTo!);
  return password;
}

async function grantWithAgent(tenant: TenantFixture, userAgent: string) {
  const response = await fetch(
    `${server.url}/realms/${tenant.name}/protocol/openid-connect/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      body: new URLSearchParams({
        client_id: 'react-client',
        grant_type: 'password',
        username: tenant.adminEmail,
        password: tenant.password,
      }),
    },
  );
  expect(response.status).toBe(200);
}

async function sessionsOf(userId: string) {
  const result = (await server.database.db.execute(sql`
    select user_agent as "userAgent", ip_address as "ipAddress", browser_hash as "browserHash"
    from sessions where user_id = ${userId} order by created_at`)) as unknown as {
    rows: Array<{ userAgent: string | null; ipAddress: string | null; browserHash: string | null }>;
  };
  return result.rows;
}

/** New-browser notices queued for the address (the outbox is written in the request). */
async function noticesTo(email: string) {
  const result = (await server.database.db.execute(sql`
    select count(*)::int as n from mail_outbox
    where to_address = ${email} and subject like 'New sign-in to your %'`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return result.rows[0]!.n;
}

describe('where sessions come from', () => {
  it("keeps the browser's user agent, address and id of a code-flow session, not the token request's", async () => {
    const tenant = await freshTenant();
    const browser = new Browser(FIREFOX);
    const password = await hostedSignIn(tenant, browser);
    const cookie = password.headers.getSetCookie().find((c) => c.startsWith('tc_browser='));
    expect(cookie).toMatch(/; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/);
    expect(await sessionsOf(tenant.adminId)).toEqual([
      { userAgent: FIREFOX, ipAddress: '127.0.0.1', browserHash: browser.browserHash() },
    ]);
  });

  it("keeps a password-grant session's user agent and address, its hash standing for the browser", async () => {
    const tenant = await freshTenant();
    await grantWithAgent(tenant, 'x'.repeat(600));
    const [session] = await sessionsOf(tenant.adminId);
    expect(session).toEqual({
      userAgent: 'x'.repeat(512),
      ipAddress: '127.0.0.1',
      browserHash: createHash('sha256').update('x'.repeat(512)).digest('base64url'),
    });
  });
});

describe('new-browser notice', () => {
  it('mails a sign-in from a second browser, not the first sign-in nor the same browser again', async () => {
    const tenant = await freshTenant();
    const firefox = new Browser(FIREFOX);
    await hostedSignIn(tenant, firefox);
    await hostedSignIn(tenant, firefox);
    expect(await noticesTo(tenant.adminEmail)).toBe(0);

    await hostedSignIn(tenant, new Browser(CHROME));
    expect(await noticesTo(tenant.adminEmail)).toBe(1);
    const mail = await smtp.waitFor(
      (m) => m.to.includes(tenant.adminEmail) && m.subject.startsWith('New sign-in'),
    );
    expect(mail.subject).toBe(`New sign-in to your ${tenant.name} account`);
    expect(mail.text).toContain('Chrome 131 on Windows, 127.0.0.1');
  });

  it('mails a password grant from a new user agent', async () => {
    const tenant = await freshTenant();
    await grantWithAgent(tenant, FIREFOX);
    await grantWithAgent(tenant, FIREFOX);
    expect(await noticesTo(tenant.adminEmail)).toBe(0);
    await grantWithAgent(tenant, CHROME);
    expect(await noticesTo(tenant.adminEmail)).toBe(1);
  });

  it('mails nothing to a user who turned these notices off', async () => {
    const tenant = await freshTenant();
    await server.database.db.execute(
      sql`update users set notify_new_browser = false where id = ${tenant.adminId}`,
    );
    await grantWithAgent(tenant, FIREFOX);
    await hostedSignIn(tenant, new Browser(CHROME));
    expect(await noticesTo(tenant.adminEmail)).toBe(0);
  });
});
