import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountProfile, SecondFactors } from '@tc/contract/security';
import { currentTotpCode } from '../../identity/second-factor/totp';
import {
  createSignedInTenant,
  refreshForm,
  signIn,
  tokenRequest,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import {
  auditOfUser,
  call,
  enrolTotpThroughAccount,
  setMfaPolicy,
  signInAgain,
} from '../../test/helpers/account-security';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';

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
const signedIn = (): Promise<Signed> => createSignedInTenant(server);
const mailTo = (email: string, subject: RegExp) =>
  smtp.waitFor((m) => m.to.includes(email) && subject.test(m.subject));

async function failuresOf(userId: string): Promise<number> {
  const result = (await server.database.db.execute(
    sql`select num_failures as n from login_failures where user_id = ${userId}`,
  )) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

const enrolTotp = (tenant: Signed) => enrolTotpThroughAccount(server, tenant.token);

describe('profile', () => {
  it('reads and changes name, language and the new-browser mail, audited', async () => {
    const tenant = await signedIn();
    const read = await call<{ data: AccountProfile }>(server, tenant.token, 'GET', '/account');
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      id: tenant.adminId,
      email: tenant.adminEmail,
      firstName: 'Ada',
      locale: null,
      notifyNewBrowser: true,
    });
    const update = {
      firstName: ' Grace ',
      lastName: 'Hopper',
      locale: 'de',
      notifyNewBrowser: false,
    };
    const written = await call<{ data: AccountProfile }>(
      server,
      tenant.token,
      'PUT',
      '/account',
      update,
    );
    expect(written.status).toBe(200);
    expect(written.body.data).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      locale: 'de',
      notifyNewBrowser: false,
    });
    const again = await call<{ data: AccountProfile }>(server, tenant.token, 'GET', '/account');
    expect(again.body.data).toEqual(written.body.data);
    const audit = await auditOfUser(server, tenant.tenantId, tenant.adminId);
    expect(audit.at(-1)).toMatchObject({ actorId: tenant.adminId, action: 'update' });
    expect(audit.at(-1)!.after).toMatchObject({ firstName: 'Grace', locale: 'de' });
  });

  it('refuses control characters, an unknown language and missing fields, naming the field', async () => {
    const tenant = await signedIn();
    const base = { firstName: 'Ada', lastName: 'Admin', locale: null, notifyNewBrowser: true };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, firstName: 'Ada\u0000' }, 'firstName'],
      [{ ...base, lastName: 'Ad\u0007min' }, 'lastName'],
      [{ ...base, firstName: 'A\u2028\n' }, 'firstName'],
      [{ ...base, lastName: '\ud800' }, 'lastName'],
      [{ ...base, locale: 'xx' }, 'locale'],
      [{ ...base, firstName: '   ' }, 'firstName'],
      [{ ...base, notifyNewBrowser: undefined }, 'notifyNewBrowser'],
    ];
    for (const [body, field] of cases) {
      const answer = await call(server, tenant.token, 'PUT', '/account', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    const unchanged = await call<{ data: AccountProfile }>(server, tenant.token, 'GET', '/account');
    expect(unchanged.body.data.firstName).toBe('Ada');
  });

  it('needs a signed-in caller', async () => {
    expect((await call(server, 'not-a-token', 'GET', '/account')).status).toBe(401);
  });
});

describe('password change', () => {
  it('refuses a wrong current password (400 on currentPassword), counting it toward the lockout', async () => {
    const tenant = await signedIn();
    const answer = await call(server, tenant.token, 'POST', '/account/password', {
      currentPassword: 'Not-the-password-1!',
      newPassword: 'Brand-new-pass#1',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('account.current_password_wrong');
    expect(answer.body.fields?.currentPassword?.code).toBe('account.current_password_wrong');
    expect(await failuresOf(tenant.adminId)).toBe(1);
    // A locked account answers 429 without looking at the password, right or wrong.
    await server.database.db.execute(
      sql`update login_failures set not_before = now() + interval '1 minute' where user_id = ${tenant.adminId}`,
    );
    const locked = await call(server, tenant.token, 'POST', '/account/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'Brand-new-pass#1',
    });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('account.locked');
  });

  it("refuses a new password the tenant's policy refuses, on newPassword", async () => {
    const tenant = await signedIn();
    const answer = await call(server, tenant.token, 'POST', '/account/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'short',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.fields?.newPassword?.code).toBe('password.too_short');
    const control = await call(server, tenant.token, 'POST', '/account/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'Brand-new\u0000pass#1',
    });
    expect(control.status).toBe(400);
    expect(Object.keys(control.body.fields ?? {})).toEqual(['newPassword']);
  });

  it('ends every other session at once (access 401, refresh dead), keeps this one, mails and audits', async () => {
    const tenant = await signedIn();
    const current = await signInAgain(server, tenant);
    const other = await signInAgain(server, tenant);
    // The other session is answered before the change: the change must show at its next request.
    expect((await call(server, other.access_token, 'GET', '/account')).status).toBe(200);

    const answer = await call(server, current.access_token, 'POST', '/account/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'Brand-new-pass#1',
    });
    expect(answer.status).toBe(200);
    expect((await call(server, other.access_token, 'GET', '/account')).status).toBe(401);
    expect((await call(server, tenant.token, 'GET', '/account')).status).toBe(401);
    const refresh = await tokenRequest(server, tenant.name, refreshForm(other.refresh_token));
    expect(refresh.status).toBe(400);

    expect((await call(server, current.access_token, 'GET', '/account')).status).toBe(200);
    const renewed = await tokenRequest(server, tenant.name, refreshForm(current.refresh_token));
    expect(renewed.status).toBe(200);
    const old = await tokenRequest(server, tenant.name, {
      client_id: 'react-client',
      grant_type: 'password',
      username: tenant.adminEmail,
      password: TEST_PASSWORD,
    });
    expect(old.status).toBe(401);
    await signIn(server, tenant.name, tenant.adminEmail, 'Brand-new-pass#1');

    const notice = await mailTo(tenant.adminEmail, /password was changed/);
    expect(notice.text).not.toContain('Brand-new-pass#1');
    const audit = await auditOfUser(server, tenant.tenantId, tenant.adminId);
    expect(audit.at(-1)!.after).toEqual({ password: 'changed', endedSessions: 2 });
  });
});

describe('authenticator app and recovery codes', () => {
  it('sets up, confirms with the current code, answers ten codes, mails the notice', async () => {
    const tenant = await signedIn();
    const before = await call<{ data: SecondFactors }>(server, tenant.token, 'GET', '/account/mfa');
    expect(before.body.data).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: [],
      required: false,
    });
    const setup = await call<{ data: { secret: string; otpauthUri: string } }>(
      server,
      tenant.token,
      'POST',
      '/account/mfa/totp/setup',
    );
    expect(setup.status).toBe(200);
    expect(setup.body.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.data.otpauthUri).toContain(`issuer=${tenant.name}`);

    const wrong = await call(server, tenant.token, 'POST', '/account/mfa/totp/confirm', {
      code: '000000' === currentTotpCode(setup.body.data.secret) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields?.code?.code).toBe('mfa.code_wrong');
    expect(await failuresOf(tenant.adminId)).toBe(1);

    const confirm = await call<{ data: { recoveryCodes: string[] } }>(
      server,
      tenant.token,
      'POST',
      '/account/mfa/totp/confirm',
      { code: currentTotpCode(setup.body.data.secret) },
    );
    expect(confirm.status).toBe(200);
    expect(confirm.body.data.recoveryCodes).toHaveLength(10);
    expect(new Set(confirm.body.data.recoveryCodes).size).toBe(10);
    for (const code of confirm.body.data.recoveryCodes) {
      expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    }
    const after = await call<{ data: SecondFactors }>(server, tenant.token, 'GET', '/account/mfa');
    expect(after.body.data).toMatchObject({ totp: true, recoveryCodesLeft: 10 });

    const notice = await mailTo(tenant.adminEmail, /authenticator app was added/);
    expect(notice.text).not.toContain(setup.body.data.secret);
    const again = await call(server, tenant.token, 'POST', '/account/mfa/totp/setup');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('mfa.totp_exists');
  });

  it('regenerates the codes (old ones gone), removes the app with them, and refuses both after', async () => {
    const tenant = await signedIn();
    const { recoveryCodes } = await enrolTotp(tenant);
    const fresh = await call<{ data: { recoveryCodes: string[] } }>(
      server,
      tenant.token,
      'POST',
      '/account/mfa/recovery-codes',
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.recoveryCodes).toHaveLength(10);
    expect(fresh.body.data.recoveryCodes.some((c) => recoveryCodes.includes(c))).toBe(false);

    const removed = await call(server, tenant.token, 'DELETE', '/account/mfa/totp');
    expect(removed.status).toBe(200);
    const status = await call<{ data: SecondFactors }>(server, tenant.token, 'GET', '/account/mfa');
    expect(status.body.data).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    await mailTo(tenant.adminEmail, /authenticator app was removed/);

    expect((await call(server, tenant.token, 'DELETE', '/account/mfa/totp')).status).toBe(404);
    const none = await call(server, tenant.token, 'POST', '/account/mfa/recovery-codes');
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('mfa.recovery_codes_need_totp');
    const audit = await auditOfUser(server, tenant.tenantId, tenant.adminId);
    expect(audit.map((entry) => entry.after)).toEqual(
      expect.arrayContaining([
        { totp: true, recoveryCodesLeft: 10 },
        { recoveryCodesLeft: 10, recoveryCodesReplaced: true },
        { totp: false, recoveryCodesLeft: 0 },
      ]),
    );
  });

  it("keeps the last factor while the tenant's policy requires one (409), and says it is required", async () => {
    const tenant = await signedIn();
    await enrolTotp(tenant);
    await setMfaPolicy(server, tenant.tenantId, 'admins');
    const status = await call<{ data: SecondFactors }>(server, tenant.token, 'GET', '/account/mfa');
    expect(status.body.data.required).toBe(true);
    const refused = await call(server, tenant.token, 'DELETE', '/account/mfa/totp');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('mfa.last_factor_required');
    const kept = await call<{ data: SecondFactors }>(server, tenant.token, 'GET', '/account/mfa');
    expect(kept.body.data).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
  });

  it('refuses a confirmation without a setup, and codes that are not codes', async () => {
    const tenant = await signedIn();
    const unstarted = await call(server, tenant.token, 'POST', '/account/mfa/totp/confirm', {
      code: '123456',
    });
    expect(unstarted.status).toBe(400);
    for (const code of ['', '12\u00003456', 'x'.repeat(40)]) {
      const answer = await call(server, tenant.token, 'POST', '/account/mfa/totp/confirm', {
        code,
      });
      expect(answer.status, JSON.stringify(code)).toBe(400);
      expect(Object.keys(answer.body.fields ?? {})).toEqual(['code']);
    }
  });
});
