import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import {
  createTenant,
  signIn,
  tokenRequest,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { followLink, linkIn, postJson, tenantHost } from '../../test/helpers/account';

let smtp: TestSmtpServer;
let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
  tenant = await createTenant(server.database.db);
  await server.database.db
    .update(tenants)
    .set({ allowSignup: true })
    .where(eq(tenants.id, tenant.tenantId));
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const PASSWORD = 'Signup-pass#1';
const signup = (email: string, domain = tenant.domain, headers: Record<string, string> = {}) =>
  postJson(
    server,
    '/auth/signup',
    { fullName: 'Ada King Lovelace', email, password: PASSWORD },
    { host: tenantHost(server, domain), headers },
  );
const passwordGrant = (email: string, password: string) =>
  tokenRequest(server, tenant.name, {
    client_id: 'react-client',
    grant_type: 'password',
    username: email,
    password,
  });

describe('sign-up', () => {
  it('creates an unverified Member who signs in only after confirming the address', async () => {
    const email = `${uniqueName('ada')}@example.test`;
    const answer = await signup(email, tenant.domain, { 'accept-language': 'de-DE,de;q=0.9' });
    expect(answer.status).toBe(202);

    const refused = await passwordGrant(email, PASSWORD);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Account is not fully set up',
    });

    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe(`Bestätigen Sie Ihre E-Mail-Adresse für ${tenant.name}`);
    const link = linkIn(mail);
    expect(link.pathname).toBe('/verifyemail');
    const verified = await followLink(server, link, '/auth/verify-email');
    expect(verified.status).toBe(200);
    expect(verified.json()).toEqual({ data: { email, realm: tenant.name } });
    expect((await followLink(server, link, '/auth/verify-email')).status).toBe(400);

    const session = await signIn(server, tenant.name, email, PASSWORD);
    const claims = JSON.parse(
      Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString(),
    );
    expect(claims.realm_access.roles).toEqual(['Member']);
    expect(claims.permissions).not.toContain('users:write');
    const [row] = await server.database.db
      .select({
        firstName: users.firstName,
        lastName: users.lastName,
        locale: users.locale,
        role: roles.name,
      })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.email, email));
    expect(row).toEqual({
      firstName: 'Ada',
      lastName: 'King Lovelace',
      locale: 'de',
      role: 'Member',
    });
  });

  it('answers an existing address exactly like a new one and mails its owner instead', async () => {
    const fresh = await signup(`${uniqueName('new')}@example.test`);
    const taken = await signup(tenant.adminEmail);
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toBe(fresh.body);
    const mail = await smtp.waitFor((m) => m.to.includes(tenant.adminEmail));
    expect(mail.subject).toContain('Sign-up attempt');
    expect(linkIn(mail).pathname).toBe('/newpassword');
    // The owner's password is untouched.
    await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD);
  });

  it('refuses sign-up where the tenant does not allow it (403) and weak passwords (400)', async () => {
    const closed = await createTenant(server.database.db);
    const answer = await signup(`${uniqueName('x')}@example.test`, closed.domain);
    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toContain('application/problem+json');
    const master = await postJson(server, '/auth/signup', {
      fullName: 'M',
      email: `${uniqueName('m')}@example.test`,
      password: PASSWORD,
    });
    expect(master.status).toBe(403);
    const weak = await postJson(
      server,
      '/auth/signup',
      { fullName: 'W', email: 'w@example.test', password: 'short' },
      { host: tenantHost(server, tenant.domain) },
    );
    expect(weak.status).toBe(400);
    expect(weak.json()).toMatchObject({ errors: { password: 'Must be at least 8 characters' } });
  });
});
