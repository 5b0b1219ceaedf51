import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  enrolTotp,
  finishSignIn,
  openSignInPage,
  passwordStep,
  postStep,
  registerApp,
  setMfaPolicy,
  TestPasskey,
  totpCode,
  type SignInPage,
} from '../../test/helpers/second-factor-sign-in';
import { currentTotpCode } from '../second-factor/totp';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';

/**
 * The hosted sign-in page's steps after the password: the authenticator app's code or a
 * recovery code, and the enrolment the tenant's policy requires. Driven as a browser does,
 * from the application's authorization request to the tokens.
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

async function freshTenant() {
  const tenant = await createTenant(server.database.db);
  await registerApp(server, tenant.tenantId);
  return tenant;
}

async function tenantWithTotp() {
  const tenant = await freshTenant();
  const enrolled = await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
  return { tenant, ...enrolled };
}

const secondFactor = (page: SignInPage, code: string) => postStep(page, '/second-factor', { code });

describe('hosted sign-in with an authenticator app', () => {
  it('asks for the second factor after the password, and finishes with the right code', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const page = await openSignInPage(server, tenant.name);
    const password = await passwordStep(page, tenant);
    expect(password).toMatchObject({
      status: 200,
      body: { next: 'second-factor', methods: ['totp', 'recovery-code'] },
    });
    expect(password.headers.get('cache-control')).toBe('no-store');
    const done = await secondFactor(page, totpCode(secret));
    expect(done).toMatchObject({ status: 200, body: { next: 'done' } });
    const tokens = await finishSignIn(page, done.body.redirectTo!);
    expect(tokens.claims()).toMatchObject({ sub: tenant.adminId });
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(200);
  });

  it('offers passkeys too when the user has one', async () => {
    const { tenant } = await tenantWithTotp();
    await new TestPasskey().register(server, { tenantId: tenant.tenantId, userId: tenant.adminId });
    const page = await openSignInPage(server, tenant.name);
    expect((await passwordStep(page, tenant)).body).toEqual({
      next: 'second-factor',
      methods: ['totp', 'recovery-code', 'passkey'],
    });
  });

  it('refuses a wrong code, and the password alone gives no way back to the application', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const page = await openSignInPage(server, tenant.name);
    const password = await passwordStep(page, tenant);
    expect(password.body.redirectTo).toBeUndefined();
    const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(await secondFactor(page, wrong)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid authenticator code' },
    });
    // The interaction has no result: resuming it shows the sign-in page again, not a code.
    const resume = page.page
      .replace('/login-actions/', '/realms/')
      .replace(`/${tenant.name}/`, `/${tenant.name}/protocol/openid-connect/auth/`);
    const resumed = await page.jar.fetch(resume);
    expect(resumed.headers.get('location')).toMatch(`/login-actions/${tenant.name}/`);
  });

  it('finishes once: the same step cannot be finished again with another code', async () => {
    const { tenant, secret, recoveryCodes } = await tenantWithTotp();
    const page = await openSignInPage(server, tenant.name);
    await passwordStep(page, tenant);
    expect((await secondFactor(page, totpCode(secret))).status).toBe(200);
    expect(await secondFactor(page, recoveryCodes[0]!)).toMatchObject({ status: 400 });
  });

  it('takes a recovery code once and mails that it was used', async () => {
    const { tenant, recoveryCodes } = await tenantWithTotp();
    const page = await openSignInPage(server, tenant.name);
    await passwordStep(page, tenant);
    const done = await secondFactor(page, recoveryCodes[5]!);
    expect(done.body).toMatchObject({ next: 'done' });
    await smtp.waitFor((m) => m.to.includes(tenant.adminEmail) && /recovery code/i.test(m.subject));
    const again = await openSignInPage(server, tenant.name);
    await passwordStep(again, tenant);
    expect(await secondFactor(again, recoveryCodes[5]!)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('refuses the step when no password sign-in waits for it', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const page = await openSignInPage(server, tenant.name);
    expect(await secondFactor(page, totpCode(secret))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
  });
});

describe("the enrolment the tenant's policy requires", () => {
  it('forces the enrolment, and signs in only once the first code confirms it', async () => {
    const tenant = await freshTenant();
    await setMfaPolicy(server, tenant.tenantId, 'everyone');
    const page = await openSignInPage(server, tenant.name);
    expect((await passwordStep(page, tenant)).body).toEqual({ next: 'enrol' });
    // Nothing else finishes the sign-in meanwhile.
    expect((await secondFactor(page, '000000')).status).toBe(400);

    const started = await postStep(page, '/enrol/totp');
    expect(started.status).toBe(200);
    const { secret, otpauthUri } = started.body as { secret: string; otpauthUri: string };
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUri).toContain(`issuer=${tenant.name}`);

    const wrong = String((Number(currentTotpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await postStep(page, '/enrol/totp/confirm', { code: wrong })).status).toBe(400);
    const done = await postStep(page, '/enrol/totp/confirm', { code: currentTotpCode(secret) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ next: 'done', redirectTo: expect.any(String) });
    expect(done.body.recoveryCodes).toHaveLength(10);
    const tokens = await finishSignIn(page, done.body.redirectTo!);
    expect(tokens.claims()).toMatchObject({ sub: tenant.adminId });
    await smtp.waitFor((m) => m.to.includes(tenant.adminEmail) && /authenticator/i.test(m.subject));

    // From now on the app's code is asked for.
    const next = await openSignInPage(server, tenant.name);
    expect((await passwordStep(next, tenant)).body).toMatchObject({ next: 'second-factor' });
  });

  it('offers no enrolment where the policy asks none', async () => {
    const tenant = await freshTenant();
    const page = await openSignInPage(server, tenant.name);
    expect((await passwordStep(page, tenant)).body).toMatchObject({ next: 'done' });
    expect((await postStep(page, '/enrol/totp')).status).toBe(400);
  });
});
