import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecondFactors } from '@tc/contract/security';
import { currentTotpCode } from '../../identity/second-factor/totp';
import { createSignedInTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import {
  SoftwareAuthenticator,
  call,
  enrolTotpThroughAccount,
  sessionIdOf,
  signInAgain,
  tenantOrigin,
} from '../../test/helpers/account-security';
import { TestPasskey } from '../../test/helpers/second-factor-sign-in';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type Signed = TenantFixture & { token: string };

/**
 * Moves the session's sign-in (and any re-verification) an hour into the past: the state an
 * access token of a session signed in long ago is in, without waiting for it.
 */
async function ageSession(token: string) {
  await server.database.db.execute(
    sql`update sessions set created_at = now() - interval '1 hour' where id = ${sessionIdOf(token)}`,
  );
  const columns = (await server.database.db.execute(
    sql`select 1 from information_schema.columns
        where table_name = 'sessions' and column_name = 'reverified_at'`,
  )) as unknown as { rows: unknown[] };
  if (columns.rows.length > 0) {
    await server.database.db.execute(
      sql`update sessions set reverified_at = now() - interval '1 hour' where id = ${sessionIdOf(token)} and reverified_at is not null`,
    );
  }
}

async function failuresOf(userId: string): Promise<number> {
  const result = (await server.database.db.execute(
    sql`select num_failures as n from login_failures where user_id = ${userId}`,
  )) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

const enrolTotp = (tenant: Signed) => enrolTotpThroughAccount(server, tenant.token);

async function addPasskey(tenant: Signed) {
  const origin = tenantOrigin(server, tenant);
  const options = await call<{ data: { options: { challenge: string; rp: { id: string } } } }>(
    server,
    tenant.token,
    'POST',
    '/account/passkeys/options',
    undefined,
    { origin },
  );
  expect(options.status).toBe(200);
  const response = new SoftwareAuthenticator().attest(options.body.data.options, origin);
  const created = await call<{ data: { id: string } }>(
    server,
    tenant.token,
    'POST',
    '/account/passkeys',
    { name: 'Laptop', response },
  );
  expect(created.status).toBe(201);
  return created.body.data.id;
}

const reverify = (tenant: Signed, proof: Record<string, unknown>, headers = {}) =>
  call(server, tenant.token, 'POST', '/account/reverify', proof, headers);

const factorsOf = async (tenant: Signed) =>
  (await call<{ data: SecondFactors }>(server, tenant.token, 'GET', '/account/mfa')).body.data;

/** Every route that changes a factor or shows a secret, as an old session calls it. */
const SENSITIVE: Array<{ name: string; method: string; path: (passkeyId: string) => string }> = [
  { name: 'removing the authenticator app', method: 'DELETE', path: () => '/account/mfa/totp' },
  {
    name: 'new recovery codes',
    method: 'POST',
    path: () => '/account/mfa/recovery-codes',
  },
  { name: 'removing a passkey', method: 'DELETE', path: (id) => `/account/passkeys/${id}` },
  { name: 'adding a passkey', method: 'POST', path: () => '/account/passkeys/options' },
  {
    name: 'setting up an authenticator app',
    method: 'POST',
    path: () => '/account/mfa/totp/setup',
  },
];

describe('recent proof for account security', () => {
  for (const route of SENSITIVE) {
    it(`refuses ${route.name} to a session signed in long ago, until it re-verifies`, async () => {
      const tenant = await createSignedInTenant(server);
      const needsNoTotp = route.path('') === '/account/mfa/totp/setup';
      if (!needsNoTotp) await enrolTotp(tenant);
      const passkeyId = await addPasskey(tenant);
      const before = await factorsOf(tenant);
      await ageSession(tenant.token);

      const headers = { origin: tenantOrigin(server, tenant) };
      const refused = await call(
        server,
        tenant.token,
        route.method,
        route.path(passkeyId),
        undefined,
        headers,
      );
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('auth.reverification_required');
      expect(await factorsOf(tenant)).toEqual(before);

      expect((await reverify(tenant, { password: TEST_PASSWORD })).status).toBe(200);
      const passed = await call(
        server,
        tenant.token,
        route.method,
        route.path(passkeyId),
        undefined,
        headers,
      );
      expect(passed.status).toBeLessThan(300);
    });
  }

  it('lets a session that just signed in act without re-verifying', async () => {
    const tenant = await createSignedInTenant(server);
    await enrolTotp(tenant);
    expect((await call(server, tenant.token, 'DELETE', '/account/mfa/totp')).status).toBe(200);
  });

  it('refuses again once the re-verification is older than the window', async () => {
    const tenant = await createSignedInTenant(server);
    await enrolTotp(tenant);
    await ageSession(tenant.token);
    expect((await reverify(tenant, { password: TEST_PASSWORD })).status).toBe(200);
    await ageSession(tenant.token);
    const refused = await call(server, tenant.token, 'DELETE', '/account/mfa/totp');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('auth.reverification_required');
  });

  it("stamps only the caller's session: another session of the user stays old", async () => {
    const tenant = await createSignedInTenant(server);
    const other = { ...tenant, token: (await signInAgain(server, tenant)).access_token };
    await enrolTotp(tenant);
    await ageSession(tenant.token);
    await ageSession(other.token);
    expect((await reverify(other, { password: TEST_PASSWORD })).status).toBe(200);
    const refused = await call(server, tenant.token, 'DELETE', '/account/mfa/totp');
    expect(refused.body.code).toBe('auth.reverification_required');
    expect((await call(server, other.token, 'DELETE', '/account/mfa/totp')).status).toBe(200);
  });

  it("takes the authenticator app's current code", async () => {
    const tenant = await createSignedInTenant(server);
    const { secret } = await enrolTotp(tenant);
    await ageSession(tenant.token);
    // The enrolment used this step's code; the next step's is a new proof (within the drift).
    const code = currentTotpCode(secret, Date.now() + 30_000);
    expect((await reverify(tenant, { code })).status).toBe(200);
    const codes = await call(server, tenant.token, 'POST', '/account/mfa/recovery-codes');
    expect(codes.status).toBe(200);
  });

  it('takes a recovery code, used up by it', async () => {
    const tenant = await createSignedInTenant(server);
    const { recoveryCodes } = await enrolTotp(tenant);
    await ageSession(tenant.token);
    expect((await reverify(tenant, { code: recoveryCodes[0] })).status).toBe(200);
    expect((await factorsOf(tenant)).recoveryCodesLeft).toBe(recoveryCodes.length - 1);
    await ageSession(tenant.token);
    const again = await reverify(tenant, { code: recoveryCodes[0] });
    expect(again.status).toBe(400);
    expect(again.body.fields?.code?.code).toBe('mfa.code_wrong');
  });

  it('takes an assertion of one of the user’s passkeys', async () => {
    const tenant = await createSignedInTenant(server);
    const passkey = new TestPasskey();
    await passkey.register(server, { tenantId: tenant.tenantId, userId: tenant.adminId });
    await ageSession(tenant.token);
    const origin = tenantOrigin(server, tenant);
    const options = await call<{ data: { options: { challenge: string; rpId: string } } }>(
      server,
      tenant.token,
      'POST',
      '/account/reverify/options',
      undefined,
      { origin },
    );
    expect(options.status).toBe(200);
    const { challenge, rpId } = options.body.data.options;
    const assertion = passkey.assert({ challenge, rpId, origin, counter: 1 });
    // Off the tenant's own address a passkey proves nothing, and says where to go.
    const elsewhere = await reverify(tenant, { passkey: assertion });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.code).toBe('passkey.wrong_address');
    expect((await reverify(tenant, { passkey: assertion }, { origin })).status).toBe(200);
    // The challenge was good once.
    await ageSession(tenant.token);
    const replay = await reverify(
      tenant,
      { passkey: passkey.assert({ challenge, rpId, origin, counter: 2 }) },
      { origin },
    );
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('passkey.not_verified');
  });

  it('refuses a wrong password or code on its field, counted toward the lockout', async () => {
    const tenant = await createSignedInTenant(server);
    await enrolTotp(tenant);
    await ageSession(tenant.token);
    // The enrolment's code was counted too (the caller chose that secret): count from here.
    const counted = await failuresOf(tenant.adminId);
    const password = await reverify(tenant, { password: 'Not-the-password-1!' });
    expect(password.status).toBe(400);
    expect(password.body.fields?.password?.code).toBe('account.current_password_wrong');
    expect(await failuresOf(tenant.adminId)).toBe(counted + 1);
    const code = await reverify(tenant, { code: '000000' });
    expect(code.status).toBe(400);
    expect(code.body.fields?.code?.code).toBe('mfa.code_wrong');
    expect(await failuresOf(tenant.adminId)).toBe(counted + 2);

    // Locked, the right password is not even looked at.
    await server.database.db.execute(
      sql`update login_failures set not_before = now() + interval '1 minute' where user_id = ${tenant.adminId}`,
    );
    const locked = await reverify(tenant, { password: TEST_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('account.locked');
    const still = await call(server, tenant.token, 'DELETE', '/account/mfa/totp');
    expect(still.body.code).toBe('auth.reverification_required');
  });

  it('counts a password change, which carries the current password, as a proof', async () => {
    const tenant = await createSignedInTenant(server);
    await enrolTotp(tenant);
    await ageSession(tenant.token);
    const changed = await call(server, tenant.token, 'POST', '/account/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'Brand-new-pass#1',
    });
    expect(changed.status).toBe(200);
    expect((await call(server, tenant.token, 'DELETE', '/account/mfa/totp')).status).toBe(200);
  });

  it('ends the recent proof of a session whose wrong proof was sent, its sign-in included', async () => {
    const tenant = await createSignedInTenant(server);
    await enrolTotp(tenant);
    expect((await reverify(tenant, { password: 'Not-the-password-1!' })).status).toBe(400);
    const refused = await call(server, tenant.token, 'DELETE', '/account/mfa/totp');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('auth.reverification_required');
    expect((await reverify(tenant, { password: TEST_PASSWORD })).status).toBe(200);
    expect((await call(server, tenant.token, 'DELETE', '/account/mfa/totp')).status).toBe(200);
  });

  it('asks for exactly one proof', async () => {
    const tenant = await createSignedInTenant(server);
    const none = await reverify(tenant, {});
    expect(none.status).toBe(400);
    const both = await reverify(tenant, { password: TEST_PASSWORD, code: '123456' });
    expect(both.status).toBe(400);
    const extra = await reverify(tenant, { password: TEST_PASSWORD, token: 'anything' });
    expect(extra.status).toBe(400);
  });
});
