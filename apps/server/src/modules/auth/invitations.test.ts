import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createTenant,
  signIn,
  tokenRequest,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import {
  startTestServer,
  SUPER_ADMIN_PASSWORD,
  TEST_PASSWORD,
  type TestServer,
} from '../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { followLink, linkIn, NEW_PASSWORD } from '../../test/helpers/account';

let smtp: TestSmtpServer;
let server: TestServer;
let tenant: TenantFixture;
let token: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
  tenant = await createTenant(server.database.db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD)).access_token;
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const post = (path: string, bearer: string, body?: unknown) =>
  api(server, path, bearer, {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function invite(): Promise<{ id: string; email: string }> {
  const email = `${uniqueName('inv')}@example.test`;
  const response = await post('/users/create', token, {
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    roleId: tenant.memberRoleId,
  });
  expect(response.status).toBe(201);
  return { id: ((await response.json()) as { data: { id: string } }).data.id, email };
}

const inviteMails = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const grant = (realm: string, username: string, password: string) =>
  tokenRequest(server, realm, {
    client_id: 'react-client',
    grant_type: 'password',
    username,
    password,
  });

describe('invitations', () => {
  it('invites on users/create; the invited user cannot sign in until the link sets a password', async () => {
    const user = await invite();
    const mail = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe(`You are invited to ${tenant.name}`);
    expect(mail.text).toContain('Hello Grace,');
    expect((await grant(tenant.name, user.email, NEW_PASSWORD)).status).toBe(401);

    const link = linkIn(mail);
    expect(link.pathname).toBe('/newpassword');
    const done = await followLink(server, link, '/auth/reset-password', { password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    await signIn(server, tenant.name, user.email, NEW_PASSWORD);
    const read = await api(server, `/users/${user.id}`, token);
    expect(((await read.json()) as { data: { invited: boolean } }).data.invited).toBe(false);
    // No "password changed" notice for a first password.
    expect(inviteMails(user.email)).toHaveLength(1);
  });

  it('resends a fresh link that retires the old one; 409 once a password is set', async () => {
    const user = await invite();
    const first = linkIn(await smtp.waitFor((m) => m.to.includes(user.email)));
    const resent = await post(`/users/${user.id}/resend-invitation`, token);
    expect(resent.status).toBe(202);
    await expect.poll(() => inviteMails(user.email).length).toBe(2);
    const second = linkIn(inviteMails(user.email)[1]!);
    expect(second.searchParams.get('token')).not.toBe(first.searchParams.get('token'));

    const stale = await followLink(server, first, '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(stale.status).toBe(400);
    expect(
      (await followLink(server, second, '/auth/reset-password', { password: NEW_PASSWORD })).status,
    ).toBe(200);

    const again = await post(`/users/${user.id}/resend-invitation`, token);
    expect(again.status).toBe(409);
    expect((await post(`/users/${tenant.adminId}/resend-invitation`, token)).status).toBe(409);
  });

  it('answers 404 for another tenant’s user and 403 without users:write', async () => {
    const other = await createTenant(server.database.db);
    expect((await post(`/users/${other.adminId}/resend-invitation`, token)).status).toBe(404);
    const user = await invite();
    const link = linkIn(await smtp.waitFor((m) => m.to.includes(user.email)));
    await followLink(server, link, '/auth/reset-password', { password: NEW_PASSWORD });
    const member = (await signIn(server, tenant.name, user.email, NEW_PASSWORD)).access_token;
    expect((await post(`/users/${user.id}/resend-invitation`, member)).status).toBe(403);
  });

  it('invites the first administrator of a new tenant with the Admin role', async () => {
    const master = (
      await signIn(server, 'master', server.config.bootstrapAdminEmail, SUPER_ADMIN_PASSWORD)
    ).access_token;
    const name = uniqueName('ten');
    const adminEmail = `boss@${name}.example.test`;
    const created = await post('/tenants/create', master, {
      name,
      domain: `${name}.example.test`,
      adminEmail,
    });
    expect(created.status).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes(adminEmail));
    expect(mail.subject).toBe(`You are invited to ${name}`);
    const link = linkIn(mail);
    expect(link.hostname).toBe(`${name}.example.test`);
    expect(
      (await followLink(server, link, '/auth/reset-password', { password: NEW_PASSWORD })).status,
    ).toBe(200);
    const session = await signIn(server, name, adminEmail, NEW_PASSWORD);
    const claims = JSON.parse(
      Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString(),
    );
    expect(claims.realm_access.roles).toEqual(['Admin']);
  });
});
