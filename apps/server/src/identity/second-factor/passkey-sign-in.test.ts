import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  finishSignIn,
  openSignInPage,
  passwordStep,
  postJsonStep,
  registerApp,
  TestPasskey,
  type SignInPage,
} from '../../test/helpers/second-factor-sign-in';

/**
 * Passkeys on the hosted sign-in page: request options for a discoverable credential, then
 * the browser's assertion, made here by a software authenticator. The tenant's domain is the
 * relying party, so the page is on that domain (its Origin header).
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const originOf = (tenant: TenantFixture) => `http://${tenant.domain}:${new URL(server.url).port}`;

async function freshTenant() {
  const tenant = await createTenant(server.database.db);
  await registerApp(server, tenant.tenantId);
  return tenant;
}

async function withPasskey(counter = 0) {
  const tenant = await freshTenant();
  const passkey = new TestPasskey();
  await passkey.register(server, { tenantId: tenant.tenantId, userId: tenant.adminId }, counter);
  return { tenant, passkey };
}

/** Asks the page for options on the tenant's domain; answers the challenge to sign. */
async function challengeOf(page: SignInPage, tenant: TenantFixture) {
  const answer = await postJsonStep(page, '/passkey/options', {}, { origin: originOf(tenant) });
  expect(answer.status).toBe(200);
  const { options } = answer.body as { options: Record<string, unknown> };
  expect(options).toMatchObject({ rpId: tenant.domain, userVerification: 'preferred' });
  expect(options.allowCredentials ?? []).toEqual([]);
  return options.challenge as string;
}

/** The authenticator's assertion for the page's current challenge, sent as the page does. */
async function signInWith(
  page: SignInPage,
  tenant: TenantFixture,
  passkey: TestPasskey,
  counter: number,
  userVerified = true,
) {
  const challenge = await challengeOf(page, tenant);
  const response = passkey.assert({
    challenge,
    rpId: tenant.domain,
    origin: originOf(tenant),
    counter,
    userVerified,
  });
  const answer = await postJsonStep(page, '/passkey', { response }, { origin: originOf(tenant) });
  return { answer, response };
}

const REFUSED = {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'This passkey was not accepted.' },
};

async function passkeyRow(credentialId: string) {
  const result = (await server.database.db.execute(sql`
    select counter, last_used_at as "lastUsedAt" from passkeys
    where credential_id = ${credentialId}`)) as unknown as {
    rows: Array<{ counter: number; lastUsedAt: Date | null }>;
  };
  return result.rows[0]!;
}

describe('passkey sign-in on the hosted page', () => {
  it('signs in with the passkey alone, and keeps its counter', async () => {
    const { tenant, passkey } = await withPasskey();
    const page = await openSignInPage(server, tenant.name);
    const { answer } = await signInWith(page, tenant, passkey, 7);
    expect(answer).toMatchObject({ status: 200, body: { next: 'done' } });
    const tokens = await finishSignIn(page, answer.body.redirectTo!);
    expect(tokens.claims()).toMatchObject({ sub: tenant.adminId });
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(200);
    const row = await passkeyRow(passkey.credentialId);
    expect(Number(row.counter)).toBe(7);
    expect(row.lastUsedAt).not.toBeNull();
  });

  it('finishes a password sign-in waiting for its second factor', async () => {
    const { tenant, passkey } = await withPasskey();
    const page = await openSignInPage(server, tenant.name);
    expect((await passwordStep(page, tenant)).body).toEqual({
      next: 'second-factor',
      methods: ['passkey'],
    });
    const { answer } = await signInWith(page, tenant, passkey, 1);
    expect(answer.body).toMatchObject({ next: 'done' });
  });

  it('refuses a passkey alone whose assertion lacks user verification: it is one factor', async () => {
    const { tenant, passkey } = await withPasskey();
    const page = await openSignInPage(server, tenant.name);
    const { answer } = await signInWith(page, tenant, passkey, 1, false);
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'passkey_not_verified' },
    });
    expect(answer.body.error_description).toMatch(/password/);
    // The same passkey, verified this time, is both factors.
    expect((await signInWith(page, tenant, passkey, 2)).answer.body).toMatchObject({
      next: 'done',
    });
  });

  it('takes a passkey without user verification as the second factor after the password', async () => {
    const { tenant, passkey } = await withPasskey();
    const page = await openSignInPage(server, tenant.name);
    expect((await passwordStep(page, tenant)).body).toMatchObject({ next: 'second-factor' });
    const { answer } = await signInWith(page, tenant, passkey, 1, false);
    expect(answer.body).toMatchObject({ next: 'done' });
  });

  it("offers passkeys on the tenant's own address only", async () => {
    const { tenant } = await withPasskey();
    const page = await openSignInPage(server, tenant.name);
    const details = async (headers: Record<string, string>) =>
      (await (await page.jar.fetch(`${page.page}/details`, { headers })).json()) as {
        passkeys: boolean;
      };
    expect((await details({ origin: originOf(tenant) })).passkeys).toBe(true);
    expect((await details({})).passkeys).toBe(false);
    const elsewhere = await postJsonStep(page, '/passkey/options', {});
    expect(elsewhere).toMatchObject({ status: 400, body: { error: 'passkeys_unavailable' } });
  });

  it("refuses another tenant's credential, as it refuses an unknown one", async () => {
    const { passkey } = await withPasskey();
    const other = await freshTenant();
    const page = await openSignInPage(server, other.name);
    const { answer } = await signInWith(page, other, passkey, 1);
    expect(answer).toMatchObject(REFUSED);
    const unknown = await signInWith(page, other, new TestPasskey(), 1);
    expect(unknown.answer.body).toEqual(answer.body);
  });

  it('refuses a replayed assertion, on the same interaction and on a new one', async () => {
    const { tenant, passkey } = await withPasskey();
    const page = await openSignInPage(server, tenant.name);
    const { answer, response } = await signInWith(page, tenant, passkey, 1);
    expect(answer.status).toBe(200);
    const headers = { origin: originOf(tenant) };
    expect(await postJsonStep(page, '/passkey', { response }, headers)).toMatchObject(REFUSED);

    const next = await openSignInPage(server, tenant.name);
    await challengeOf(next, tenant);
    expect(await postJsonStep(next, '/passkey', { response }, headers)).toMatchObject(REFUSED);
  });

  it('refuses a counter that goes backwards (a cloned authenticator)', async () => {
    const { tenant, passkey } = await withPasskey(5);
    const page = await openSignInPage(server, tenant.name);
    expect((await signInWith(page, tenant, passkey, 5)).answer).toMatchObject(REFUSED);
    expect((await signInWith(page, tenant, passkey, 3)).answer).toMatchObject(REFUSED);
    expect((await signInWith(page, tenant, passkey, 6)).answer.status).toBe(200);
  });

  it('refuses a disabled account as the password step does', async () => {
    const { tenant, passkey } = await withPasskey();
    await server.database.db.execute(
      sql`update users set status = 'inactive' where id = ${tenant.adminId}`,
    );
    const page = await openSignInPage(server, tenant.name);
    expect((await signInWith(page, tenant, passkey, 1)).answer).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Account disabled' },
    });
  });

  it('refuses a body that is not an assertion, naming the field', async () => {
    const { tenant } = await withPasskey();
    const page = await openSignInPage(server, tenant.name);
    const headers = { origin: originOf(tenant) };
    const bad = await postJsonStep(page, '/passkey', { response: { id: 'a\u0000b' } }, headers);
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(bad.body.error_description).toContain('response');
  });
});
