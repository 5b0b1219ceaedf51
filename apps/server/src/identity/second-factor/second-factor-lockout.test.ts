import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, tokenRequest, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  enrolTotp,
  openSignInPage,
  passwordStep,
  postStep,
  registerApp,
  totpCode,
} from '../../test/helpers/second-factor-sign-in';
import {
  failLoginAttempt,
  passLoginAttempt,
  startLoginAttempt,
  withdrawLoginAttempt,
} from '../brute-force';

/**
 * Codes are guesses like passwords: they count toward the same lockout. A right password
 * whose code is still to come must not forget earlier failures, or sending it again would
 * buy unlimited guesses at the code.
 */

// Three failures lock for a second more per failure, up to two (Keycloak: 30, 60 s, 15 min).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    BRUTE_FORCE_FAILURE_FACTOR: '3',
    BRUTE_FORCE_WAIT_INCREMENT: '1',
    BRUTE_FORCE_MAX_WAIT: '2',
  });
});
afterAll(() => server?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wrongCode = (secret: string) =>
  String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');

async function tenantWithTotp() {
  const tenant = await createTenant(server.database.db);
  await registerApp(server, tenant.tenantId);
  const { secret } = await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
  return { tenant, secret };
}

async function failuresOf(userId: string) {
  const result = (await server.database.db.execute(
    sql`select num_failures as n from login_failures where user_id = ${userId}`,
  )) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

const grant = (tenant: TenantFixture, totp: string) =>
  tokenRequest(server, tenant.name, {
    client_id: 'react-client',
    grant_type: 'password',
    username: tenant.adminEmail,
    password: tenant.password,
    totp,
  });

describe('second-factor lockout, password grant', () => {
  it('locks after wrong codes with the right password; the right code waits for the lock to end', async () => {
    const { tenant, secret } = await tenantWithTotp();
    for (let i = 0; i < 3; i += 1) {
      expect((await grant(tenant, wrongCode(secret))).status).toBe(400);
    }
    const locked = await grant(tenant, totpCode(secret));
    expect(locked.status).toBe(401);
    expect(await locked.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid user credentials',
    });
    await sleep(1200);
    expect((await grant(tenant, totpCode(secret))).status).toBe(200);
    expect(await failuresOf(tenant.adminId)).toBe(0);
  });
});

describe('second-factor lockout, hosted sign-in page', () => {
  it('counts wrong codes across a password sent again, locks, and refuses even the right code until the lock ends', async () => {
    const { tenant, secret } = await tenantWithTotp();
    const page = await openSignInPage(server, tenant.name);
    const code = (value: string) => postStep(page, '/second-factor', { code: value });

    expect((await passwordStep(page, tenant)).body).toMatchObject({ next: 'second-factor' });
    expect(await failuresOf(tenant.adminId)).toBe(0);
    for (let i = 0; i < 2; i += 1) expect((await code(wrongCode(secret))).status).toBe(400);
    expect(await failuresOf(tenant.adminId)).toBe(2);

    // The right password again: its own attempt is taken back, the two failures stay.
    expect((await passwordStep(page, tenant)).body).toMatchObject({ next: 'second-factor' });
    expect(await failuresOf(tenant.adminId)).toBe(2);

    expect((await code(wrongCode(secret))).status).toBe(400);
    const refused = await code(totpCode(secret));
    expect(refused).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid authenticator code' },
    });
    expect((await passwordStep(page, tenant)).status).toBe(401);

    await sleep(1200);
    const done = await code(totpCode(secret));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ next: 'done', redirectTo: expect.any(String) });
    expect(await failuresOf(tenant.adminId)).toBe(0);
  });
});

describe('settling an attempt', () => {
  it('withdrawn, it keeps the failures before it; settled once, twice changes nothing', async () => {
    const tenant = await createTenant(server.database.db);
    const key = { id: tenant.adminId, tenantId: tenant.tenantId };
    const db = server.database.db;
    const settings = server.config.bruteForce;
    await failLoginAttempt(db, settings, await startLoginAttempt(db, settings, key));
    expect(await failuresOf(tenant.adminId)).toBe(1);

    const waiting = await startLoginAttempt(db, settings, key);
    await withdrawLoginAttempt(db, waiting);
    await failLoginAttempt(db, settings, waiting);
    expect(await failuresOf(tenant.adminId)).toBe(1);

    const done = await startLoginAttempt(db, settings, key);
    await passLoginAttempt(db, done);
    await failLoginAttempt(db, settings, done);
    expect(await failuresOf(tenant.adminId)).toBe(0);
  });
});
