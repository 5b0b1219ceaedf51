import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionTokens, sessions } from '../../db/schema/identity';
import { createTenant, refreshForm, signIn, tokenRequest, uniqueName } from '../../test/fixtures';
import type { TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../test/smtp';
import { followLink, linkIn, NEW_PASSWORD, postJson, tenantHost } from '../../test/helpers/account';

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

const forgot = (tenant: TenantFixture, email: string, headers: Record<string, string> = {}) =>
  postJson(
    server,
    '/auth/forgot-password',
    { email },
    { host: tenantHost(server, tenant.domain), headers },
  );

const mailTo = (email: string, subject: RegExp) =>
  smtp.waitFor((m) => m.to.includes(email) && subject.test(m.subject));

async function resetLinkFor(tenant: TenantFixture, email: string): Promise<ReceivedMail> {
  const before = smtp.messages.length;
  expect((await forgot(tenant, email)).status).toBe(202);
  return smtp.waitFor(
    (m) =>
      m.to.includes(email) && /Reset your/.test(m.subject) && smtp.messages.indexOf(m) >= before,
  );
}

describe('forgot and reset password', () => {
  it('resets end to end: link on the tenant domain, old password and sessions gone, notice sent', async () => {
    const tenant = await createTenant(server.database.db);
    const session = await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD);
    const mail = await resetLinkFor(tenant, tenant.adminEmail);
    expect(mail.subject).toBe(`Reset your ${tenant.name} password`);
    expect(mail.text).toContain(tenant.name);
    expect(mail.html).toContain('<a href="http://');
    const link = linkIn(mail);
    expect(link.origin).toBe(`http://${tenantHost(server, tenant.domain)}`);
    expect(link.pathname).toBe('/newpassword');
    expect(link.searchParams.get('token')).toMatch(/^[\w-]{43}$/);

    const done = await followLink(server, link, '/auth/reset-password', { password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.json()).toEqual({ data: { email: tenant.adminEmail, realm: tenant.name } });

    const old = await tokenRequest(server, tenant.name, {
      client_id: 'react-client',
      grant_type: 'password',
      username: tenant.adminEmail,
      password: TEST_PASSWORD,
    });
    expect(old.status).toBe(401);
    expect(
      (await tokenRequest(server, tenant.name, refreshForm(session.refresh_token))).status,
    ).toBe(400);
    const open = await server.database.db
      .select({ revokedAt: sessions.revokedAt })
      .from(sessions)
      .where(eq(sessions.userId, tenant.adminId));
    expect(open.every((s) => s.revokedAt !== null)).toBe(true);
    await signIn(server, tenant.name, tenant.adminEmail, NEW_PASSWORD);
    const notice = await mailTo(tenant.adminEmail, /password was changed/);
    expect(notice.text).not.toMatch(/token=/);
  });

  it('refuses a used, an expired and a tampered link with the same clear 400', async () => {
    const tenant = await createTenant(server.database.db);
    const link = linkIn(await resetLinkFor(tenant, tenant.adminEmail));
    expect(
      (await followLink(server, link, '/auth/reset-password', { password: NEW_PASSWORD })).status,
    ).toBe(200);

    const reused = await followLink(server, link, '/auth/reset-password', {
      password: 'Another-pass#2',
    });
    expect(reused.status).toBe(400);
    expect(reused.headers['content-type']).toContain('application/problem+json');
    const invalid = {
      status: 400,
      detail: 'This link has expired or was already used. Ask for a new one.',
    };
    expect(reused.json()).toMatchObject(invalid);

    const tampered = new URL(linkIn(await resetLinkFor(tenant, tenant.adminEmail)));
    const token = tampered.searchParams.get('token')!;
    tampered.searchParams.set(
      'token',
      `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`,
    );
    const bad = await followLink(server, tampered, '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject(invalid);

    const fresh = linkIn(await resetLinkFor(tenant, tenant.adminEmail));
    await server.database.db
      .update(actionTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(actionTokens.userId, tenant.adminId));
    const expired = await followLink(server, fresh, '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(expired.status).toBe(400);
    expect(expired.json()).toMatchObject(invalid);
  });

  it('answers the same for known and unknown e-mails and mails only the known one', async () => {
    const tenant = await createTenant(server.database.db);
    const known = await forgot(tenant, tenant.adminEmail);
    const unknown = await forgot(tenant, `${uniqueName('nobody')}@example.test`);
    expect(unknown.status).toBe(known.status);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toBe(known.body);
    await mailTo(tenant.adminEmail, /Reset your/);
  });

  it('enforces the password policy and keeps the link usable after a refusal', async () => {
    const tenant = await createTenant(server.database.db);
    const link = linkIn(await resetLinkFor(tenant, tenant.adminEmail));
    const short = await followLink(server, link, '/auth/reset-password', { password: 'a!b' });
    expect(short.status).toBe(400);
    expect(short.json()).toMatchObject({ errors: { password: 'Must be at least 8 characters' } });
    const plain = await followLink(server, link, '/auth/reset-password', {
      password: 'longenough1',
    });
    expect(plain.json()).toMatchObject({
      errors: { password: 'Must contain one special character' },
    });
    const itself = await followLink(server, link, '/auth/reset-password', {
      password: tenant.adminEmail,
    });
    expect(itself.status).toBe(400);
    expect(itself.json()).toMatchObject({
      errors: { password: expect.stringContaining('e-mail') },
    });
    expect(
      (await followLink(server, link, '/auth/reset-password', { password: NEW_PASSWORD })).status,
    ).toBe(200);
  });

  it('writes the mail in the language of Accept-Language', async () => {
    const tenant = await createTenant(server.database.db);
    expect(
      (await forgot(tenant, tenant.adminEmail, { 'accept-language': 'fr-CH, de;q=0.8' })).status,
    ).toBe(202);
    const mail = await mailTo(tenant.adminEmail, /Réinitialisez/);
    expect(mail.subject).toBe(`Réinitialisez votre mot de passe ${tenant.name}`);
    expect(mail.text).toContain('Ce lien ne fonctionne qu’une fois');
    expect(mail.html).toContain('lang="fr"');
  });
});
