import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, tokenRequest, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  enrolTotp,
  setMfaPolicy,
  TestPasskey,
  totpCode,
} from '../../test/helpers/second-factor-sign-in';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { PASSWORD_GRANT_REFUSALS } from './password-grant';

/**
 * Keycloak's direct grant with a second factor: the authenticator app's code (or a recovery
 * code) goes in the `totp` form parameter.
 */

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

const grant = (tenant: TenantFixture, extra: Record<string, string> = {}) =>
  tokenRequest(server, tenant.name, {
    client_id: 'react-client',
    grant_type: 'password',
    username: tenant.adminEmail,
    password: tenant.password,
    ...extra,
  });

async function refusal(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const refused = (description: string) => ({
  status: 400,
  body: { error: 'invalid_grant', error_description: description },
});

/** A fresh tenant whose admin has a confirmed authenticator app and ten recovery codes. */
async function tenantWithTotp() {
  const tenant = await createTenant(server.database.db);
  const enrolled = await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
  return { tenant, ...enrolled };
}

describe('password grant with an authenticator app', () => {
  it('asks for the code when totp is missing', async () => {
    const { tenant } = await tenantWithTotp();
    expect(await refusal(await grant(tenant))).toEqual(
      refused(PASSWORD_GRANT_REFUSALS.codeMissing),
    );
  });

  it('refuses a wrong code', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(await refusal(await grant(tenant, { totp: wrong }))).toEqual(
      refused('Invalid authenticator code'),
    );
  });

  it('issues tokens for the right code, which the API takes', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const response = await grant(tenant, { totp: totpCode(secret) });
    expect(response.status).toBe(200);
    const { access_token: token } = (await response.json()) as { access_token: string };
    expect((await api(server, '/auth/me', token)).status).toBe(200);
  });

  it('never accepts the same code twice', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const code = totpCode(secret, 1);
    expect((await grant(tenant, { totp: code })).status).toBe(200);
    expect(await refusal(await grant(tenant, { totp: code }))).toEqual(
      refused('Invalid authenticator code'),
    );
  });

  it('takes a recovery code once, and mails that it was used', async () => {
    const { tenant, recoveryCodes } = await tenantWithTotp();
    const code = recoveryCodes[3]!;
    expect((await grant(tenant, { totp: code.toLowerCase() })).status).toBe(200);
    expect(await refusal(await grant(tenant, { totp: code }))).toEqual(
      refused('Invalid authenticator code'),
    );
    const mail = await smtp.waitFor(
      (m) => m.to.includes(tenant.adminEmail) && /recovery code/i.test(m.subject),
    );
    expect(mail.subject).toBe(`A recovery code of your ${tenant.name} account was used`);
  });

  it('answers an unknown account and a wrong password as before, code or not', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const invalid = {
      status: 401,
      body: { error: 'invalid_grant', error_description: 'Invalid user credentials' },
    };
    expect(
      await refusal(await grant(tenant, { password: 'Wrong-pass-1!', totp: totpCode(secret) })),
    ).toEqual(invalid);
    const unknown = await tokenRequest(server, tenant.name, {
      client_id: 'react-client',
      grant_type: 'password',
      username: `nobody@${tenant.domain}`,
      password: tenant.password,
      totp: '123456',
    });
    expect(await refusal(unknown)).toEqual(invalid);
  });
});

describe('password grant without an authenticator app', () => {
  it('refuses an account with passkeys only: they work on the sign-in page', async () => {
    const tenant = await createTenant(server.database.db);
    await new TestPasskey().register(server, { tenantId: tenant.tenantId, userId: tenant.adminId });
    expect(await refusal(await grant(tenant, { totp: '123456' }))).toEqual(
      refused(PASSWORD_GRANT_REFUSALS.passkeyOnly),
    );
  });

  it("refuses an account the tenant's policy requires a second factor of, until it has one", async () => {
    const tenant = await createTenant(server.database.db);
    await setMfaPolicy(server, tenant.tenantId, 'admins');
    expect(await refusal(await grant(tenant))).toEqual(refused(PASSWORD_GRANT_REFUSALS.enrolFirst));
    const { secret } = await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
    expect((await grant(tenant, { totp: totpCode(secret) })).status).toBe(200);
  });

  it('signs in without a code where the policy asks none of the user', async () => {
    const tenant = await createTenant(server.database.db);
    await setMfaPolicy(server, tenant.tenantId, 'optional');
    expect((await grant(tenant)).status).toBe(200);
  });
});
