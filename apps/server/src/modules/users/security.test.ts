import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserSecurity } from '@tc/contract/security';
import { replaceRecoveryCodes } from '../../identity/second-factor/recovery-codes';
import { currentTotpCode } from '../../identity/second-factor/totp';
import {
  createSignedInTenant,
  refreshForm,
  signIn,
  tokenRequest,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { auditOfUser, call, sessionIdOf, setMfaPolicy } from '../../test/helpers/account-security';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { insertRole } from '../roles';
import { insertUser } from './queries';

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

type Signed = TenantFixture & { token: string };

/** A Member of the tenant with a password, signed in twice (two sessions). */
async function member(tenant: Signed) {
  const email = `${uniqueName('m')}@example.test`;
  const id = await insertUser(server.database.db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Mia',
    lastName: 'Member',
    roleId: tenant.memberRoleId,
    password: TEST_PASSWORD,
  });
  const first = await signIn(server, tenant.name, email, TEST_PASSWORD);
  const second = await signIn(server, tenant.name, email, TEST_PASSWORD);
  return { id, email, first, second };
}

/** Gives the user an authenticator app and a passkey, as enrolment would leave them. */
async function withSecondFactors(token: string, user: { id: string; tenantId: string }) {
  const setup = await call<{ data: { secret: string } }>(
    server,
    token,
    'POST',
    '/account/mfa/totp/setup',
  );
  const confirmed = await call(server, token, 'POST', '/account/mfa/totp/confirm', {
    code: currentTotpCode(setup.body.data.secret),
  });
  expect(confirmed.status).toBe(200);
  await server.database.db.execute(sql`
    insert into passkeys (tenant_id, user_id, credential_id, public_key, name)
    values (${user.tenantId}, ${user.id}, ${uniqueName('cred')}, 'pk', 'Phone')`);
}

const securityOf = (tenant: Signed, userId: string) =>
  call<{ data: UserSecurity }>(server, tenant.token, 'GET', `/users/${userId}/sessions`);
const whoAmI = async (token: string) => (await call(server, token, 'GET', '/account')).status;

describe("an administrator and a user's sign-in security", () => {
  it('sees the sessions and second factors, ends one session and then all', async () => {
    const tenant = await createSignedInTenant(server);
    const user = await member(tenant);
    const view = await securityOf(tenant, user.id);
    expect(view.status).toBe(200);
    expect(view.body.data.sessions.map((s) => s.id)).toEqual([
      sessionIdOf(user.second.access_token),
      sessionIdOf(user.first.access_token),
    ]);
    expect(view.body.data.sessions.every((s) => !s.current)).toBe(true);
    expect(view.body.data.secondFactors).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: [],
      required: false,
    });
    expect(await whoAmI(user.first.access_token)).toBe(200);

    const one = await call(
      server,
      tenant.token,
      'POST',
      `/users/${user.id}/sessions/${sessionIdOf(user.first.access_token)}/revoke`,
    );
    expect(one).toMatchObject({ status: 200, body: { data: { revoked: 1 } } });
    expect(await whoAmI(user.first.access_token)).toBe(401);
    expect(await whoAmI(user.second.access_token)).toBe(200);

    const all = await call(server, tenant.token, 'POST', `/users/${user.id}/sessions/revoke-all`);
    expect(all).toMatchObject({ status: 200, body: { data: { revoked: 1 } } });
    expect(await whoAmI(user.second.access_token)).toBe(401);
    const refresh = await tokenRequest(server, tenant.name, refreshForm(user.second.refresh_token));
    expect(refresh.status).toBe(400);
    expect((await securityOf(tenant, user.id)).body.data.sessions).toEqual([]);
    expect(await whoAmI(tenant.token)).toBe(200);

    const audit = await auditOfUser(server, tenant.tenantId, user.id);
    expect(audit.map((entry) => [entry.actorId, entry.after])).toEqual([
      [tenant.adminId, { endedSessions: 1, session: sessionIdOf(user.first.access_token) }],
      [tenant.adminId, { endedSessions: 1 }],
    ]);
  });

  it("a session that is not the user's is not found", async () => {
    const tenant = await createSignedInTenant(server);
    const user = await member(tenant);
    const answer = await call(
      server,
      tenant.token,
      'POST',
      `/users/${user.id}/sessions/${sessionIdOf(tenant.token)}/revoke`,
    );
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('session.not_found');
    expect(await whoAmI(tenant.token)).toBe(200);
  });

  it('resets the second factors: gone, told by mail, audited, and the new view answered', async () => {
    const tenant = await createSignedInTenant(server);
    const user = await member(tenant);
    await withSecondFactors(user.first.access_token, { id: user.id, tenantId: tenant.tenantId });
    await setMfaPolicy(server, tenant.tenantId, 'everyone');
    const before = await securityOf(tenant, user.id);
    expect(before.body.data.secondFactors).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
      required: true,
    });
    expect(before.body.data.secondFactors.passkeys).toHaveLength(1);

    const reset = await call<{ data: UserSecurity }>(
      server,
      tenant.token,
      'POST',
      `/users/${user.id}/reset-mfa`,
    );
    expect(reset.status).toBe(200);
    expect(reset.body.data.secondFactors).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: [],
      required: true,
    });
    expect(reset.body.data.sessions).toHaveLength(2);
    const own = await call(server, user.first.access_token, 'GET', '/account/mfa');
    expect(own.body).toMatchObject({ data: { totp: false, passkeys: [] } });

    await smtp.waitFor((m) => m.to.includes(user.email) && /were reset/.test(m.subject));
    const audit = await auditOfUser(server, tenant.tenantId, user.id);
    expect(audit.at(-1)).toMatchObject({
      actorId: tenant.adminId,
      action: 'update',
      after: { secondFactors: { totp: false, recoveryCodesLeft: 0, passkeys: 0 } },
    });
  });

  it("another tenant's user is not found, whatever the route", async () => {
    const tenant = await createSignedInTenant(server);
    const other = await createSignedInTenant(server);
    const stranger = await member(other);
    await replaceRecoveryCodes(server.database.db, { id: stranger.id, tenantId: other.tenantId });
    const routes: Array<[string, string]> = [
      ['GET', `/users/${stranger.id}/sessions`],
      ['POST', `/users/${stranger.id}/sessions/${sessionIdOf(stranger.first.access_token)}/revoke`],
      ['POST', `/users/${stranger.id}/sessions/revoke-all`],
      ['POST', `/users/${stranger.id}/reset-mfa`],
    ];
    for (const [method, path] of routes) {
      const answer = await call(server, tenant.token, method, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.code).toBe('user.not_found');
    }
    expect(await whoAmI(stranger.first.access_token)).toBe(200);
    const untouched = await call(server, stranger.first.access_token, 'GET', '/account/mfa');
    expect(untouched.body).toMatchObject({ data: { recoveryCodesLeft: 10 } });
  });

  it('needs users:write: a Member gets 403 and nothing ends', async () => {
    const tenant = await createSignedInTenant(server);
    const user = await member(tenant);
    const other = await member(tenant);
    for (const [method, path] of [
      ['GET', `/users/${other.id}/sessions`],
      ['POST', `/users/${other.id}/sessions/revoke-all`],
      ['POST', `/users/${other.id}/reset-mfa`],
      ['POST', `/users/${tenant.adminId}/sessions/revoke-all`],
    ] as const) {
      const answer = await call(server, user.first.access_token, method, path);
      expect(answer.status, path).toBe(403);
    }
    expect(await whoAmI(tenant.token)).toBe(200);
    expect(await whoAmI(other.first.access_token)).toBe(200);
  });

  it("with users:write but not what an Admin's role grants, an Admin's sessions and factors stay", async () => {
    const tenant = await createSignedInTenant(server);
    const managerRole = await insertRole(server.database.db, {
      tenantId: tenant.tenantId,
      name: uniqueName('Manager'),
      permissionIds: ['users:read', 'users:write'].map((name) => tenant.permissionIds.get(name)!),
    });
    const email = `${uniqueName('mgr')}@example.test`;
    await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'Max',
      lastName: 'Manager',
      roleId: managerRole,
      password: TEST_PASSWORD,
    });
    const manager = await signIn(server, tenant.name, email, TEST_PASSWORD);
    const view = await securityOf({ ...tenant, token: manager.access_token }, tenant.adminId);
    expect(view.status).toBe(200);
    for (const path of [
      `/users/${tenant.adminId}/sessions/revoke-all`,
      `/users/${tenant.adminId}/sessions/${sessionIdOf(tenant.token)}/revoke`,
      `/users/${tenant.adminId}/reset-mfa`,
    ]) {
      const answer = await call(server, manager.access_token, 'POST', path);
      expect(answer.status, path).toBe(403);
    }
    expect(await whoAmI(tenant.token)).toBe(200);
  });
});
