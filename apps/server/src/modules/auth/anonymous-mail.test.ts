import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail';
import { tenants } from '../../db/schema/tenants';
import { api, createTenant, signIn, uniqueName, type TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../test/smtp';
import { followLink, linkIn, NEW_PASSWORD, postJson, tenantHost } from '../../test/helpers/account';

// Mail that anyone can cause without signing in: forgot-password and sign-up.

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The per-client limit is not under test here: every request comes from 127.0.0.1.
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '100',
    ACCOUNT_RATE_LIMIT: '1000',
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function openTenant(): Promise<TenantFixture> {
  const tenant = await createTenant(server.database.db);
  await server.database.db
    .update(tenants)
    .set({ allowSignup: true })
    .where(eq(tenants.id, tenant.tenantId));
  return tenant;
}

const signup = (tenant: TenantFixture, email: string, fullName = 'Ada Lovelace') =>
  postJson(
    server,
    '/auth/signup',
    { fullName, email, password: 'Signup-pass#1' },
    { host: tenantHost(server, tenant.domain) },
  );
const forgot = (tenant: TenantFixture, email: string) =>
  postJson(server, '/auth/forgot-password', { email }, { host: tenantHost(server, tenant.domain) });

/** Mails queued for an address: the outbox is written in the request's own transaction. */
async function queued(tenant: TenantFixture, email: string, subject: string) {
  const rows = await server.database.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.tenantId, tenant.tenantId),
        eq(mailOutbox.toAddress, email),
        like(mailOutbox.subject, `%${subject}%`),
      ),
    );
  return rows.length;
}

/** The next mail to `email` whose subject matches, counting only mails not yet seen. */
async function nextMail(email: string, subject: RegExp, seen: Set<ReceivedMail>) {
  const mail = await smtp.waitFor(
    (m) => m.to.includes(email) && subject.test(m.subject) && !seen.has(m),
  );
  seen.add(mail);
  return mail;
}

describe('the per-address limit on anonymous mail', () => {
  it('stops sign-up at 3 per address like forgot-password, alike for known and new addresses', async () => {
    const tenant = await openTenant();
    const fresh = `${uniqueName('new')}@example.test`;
    const answers = { known: [] as number[], fresh: [] as number[] };
    for (let i = 0; i < 6; i++) {
      answers.known.push((await signup(tenant, tenant.adminEmail)).status);
      answers.fresh.push((await signup(tenant, fresh)).status);
    }
    expect(answers.known).toEqual([202, 202, 202, 429, 429, 429]);
    expect(answers.fresh).toEqual(answers.known);
    const limited = await signup(tenant, tenant.adminEmail);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });

    expect(await queued(tenant, tenant.adminEmail, 'Sign-up attempt')).toBe(3);
    expect(await queued(tenant, fresh, 'Confirm your e-mail')).toBe(1);
    // Its second and third sign-ups found the account the first one made.
    expect(await queued(tenant, fresh, 'Sign-up attempt')).toBe(2);
  });

  it('counts forgot-password and sign-up against the same budget', async () => {
    const tenant = await openTenant();
    expect((await forgot(tenant, tenant.adminEmail)).status).toBe(202);
    expect((await signup(tenant, tenant.adminEmail)).status).toBe(202);
    expect((await forgot(tenant, tenant.adminEmail)).status).toBe(202);
    expect((await forgot(tenant, tenant.adminEmail)).status).toBe(429);
    expect((await signup(tenant, tenant.adminEmail)).status).toBe(429);
  });
});

describe('links the owner holds', () => {
  it('stay live through anonymous requests; using one retires the others', async () => {
    const tenant = await openTenant();
    const seen = new Set<ReceivedMail>();
    expect((await forgot(tenant, tenant.adminEmail)).status).toBe(202);
    const first = linkIn(await nextMail(tenant.adminEmail, /Reset your/, seen));
    expect((await signup(tenant, tenant.adminEmail)).status).toBe(202);
    const warned = linkIn(await nextMail(tenant.adminEmail, /Sign-up attempt/, seen));
    expect((await forgot(tenant, tenant.adminEmail)).status).toBe(202);
    const latest = linkIn(await nextMail(tenant.adminEmail, /Reset your/, seen));

    const used = await followLink(server, first, '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(used.status).toBe(200);
    for (const stale of [warned, latest]) {
      const again = await followLink(server, stale, '/auth/reset-password', {
        password: 'Another-pass#2',
      });
      expect(again.status).toBe(400);
    }
    await signIn(server, tenant.name, tenant.adminEmail, NEW_PASSWORD);
  });

  it('keep an invitation live through forgot-password and sign-up of its address', async () => {
    const tenant = await openTenant();
    const admin = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD))
      .access_token;
    const email = `${uniqueName('inv')}@example.test`;
    const created = await api(server, '/users/create', admin, {
      method: 'POST',
      body: JSON.stringify({
        firstName: 'Ivy',
        lastName: 'Invited',
        email,
        roleId: tenant.memberRoleId,
      }),
    });
    expect(created.status).toBe(201);
    const seen = new Set<ReceivedMail>();
    const invitation = linkIn(await nextMail(email, /invited/, seen));
    expect((await forgot(tenant, email)).status).toBe(202);
    const reset = linkIn(await nextMail(email, /Reset your/, seen));
    expect((await signup(tenant, email)).status).toBe(202);
    await nextMail(email, /Sign-up attempt/, seen);

    const accepted = await followLink(server, invitation, '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(accepted.status).toBe(200);
    expect(
      (await followLink(server, reset, '/auth/reset-password', { password: 'Another-pass#2' }))
        .status,
    ).toBe(400);
  });
});

describe('free text from the sign-up form', () => {
  it('never reaches a mail, so no mail client can turn it into a link', async () => {
    const tenant = await openTenant();
    const email = `${uniqueName('victim')}@example.test`;
    const seen = new Set<ReceivedMail>();
    const bait = 'www.evil.example http://evil.example/x evil.example/path';
    expect((await signup(tenant, email, bait)).status).toBe(202);
    const verify = await nextMail(email, /Confirm/, seen);
    expect((await signup(tenant, email, bait)).status).toBe(202);
    const warning = await nextMail(email, /Sign-up attempt/, seen);
    expect((await followLink(server, linkIn(verify), '/auth/verify-email')).status).toBe(200);
    // Verified now, the account still carries the name typed into the anonymous form.
    expect((await forgot(tenant, email)).status).toBe(202);
    const reset = await nextMail(email, /Reset your/, seen);

    for (const mail of [verify, warning, reset]) {
      expect(mail.text).not.toMatch(/evil/);
      expect(mail.html).not.toMatch(/evil/);
      expect(mail.text).toMatch(/^Hello,\r?\n/);
    }
  });
});
