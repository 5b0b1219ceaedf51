import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { basicAuth, postForm } from '../../test/helpers/conformance';
import { insertClient } from '../../test/helpers/relying-party';
import { digestClientSecret } from './client-secret';

// A client secret is 32 random bytes: guessing it is hopeless, so the right one is never
// refused, however many wrong ones others sent. Wrong secrets are throttled per source (the
// client's address and the client), so that one guesser spends only their own budget.
// Sources are told apart by X-Forwarded-For from a trusted proxy (the test's loopback).

const SECRET = 'service-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const ROTATED = 'rotated-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const BUDGET = 3;
const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.20';
let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  server = await startTestServer({
    TRUST_PROXY: 'loopback',
    // Keycloak's quick-login rule at its strictest for users: clients must not inherit it.
    BRUTE_FORCE_QUICK_LOGIN_MS: '60000',
    BRUTE_FORCE_QUICK_LOGIN_WAIT: '600',
    CLIENT_SECRET_RATE_LIMIT: String(BUDGET),
  });
  tenant = await createTenant(server.database.db);
  for (const clientId of ['svc-spent', 'svc-rotated', 'svc-direct', 'svc-introspect']) {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId,
      type: 'confidential',
      secretDigest: digestClientSecret(SECRET),
      grantTypes: ['client_credentials', 'password'],
    });
  }
});
afterAll(() => server?.close());

const from = (address: string) => ({ 'x-forwarded-for': address });

const clientCredentials = (clientId: string, secret: string, address: string) =>
  postForm(
    server,
    tenant.name,
    '/token',
    { grant_type: 'client_credentials' },
    { ...basicAuth(clientId, secret), ...from(address) },
  );

/** Wrong secrets from one address until its budget is spent: each refused as invalid_client. */
async function spendBudget(clientId: string, address: string) {
  for (let i = 0; i < BUDGET; i += 1) {
    const answer = await clientCredentials(clientId, `wrong-${i}`, address);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: 'invalid_client' });
  }
}

async function expectThrottled(answer: Response) {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe("an attacker's wrong client secrets", () => {
  it('never refuse the right secret, from another address or from the same one', async () => {
    await spendBudget('svc-spent', ATTACKER);
    await expectThrottled(await clientCredentials('svc-spent', 'wrong-again', ATTACKER));
    expect((await clientCredentials('svc-spent', SECRET, OWNER)).status).toBe(200);
    expect((await clientCredentials('svc-spent', SECRET, ATTACKER)).status).toBe(200);
    // The right secret buys the guesser nothing: their next wrong one is still throttled.
    await expectThrottled(await clientCredentials('svc-spent', 'wrong-after', ATTACKER));
  });

  it('are counted per address: another source keeps its own budget', async () => {
    const other = '203.0.113.77';
    const answer = await clientCredentials('svc-spent', 'wrong-elsewhere', other);
    expect(answer.status).toBe(401);
  });

  it('never refuse a freshly rotated secret', async () => {
    await spendBudget('svc-rotated', ATTACKER);
    await server.database.db.execute(sql`
      update clients set secret_hash = ${digestClientSecret(ROTATED)}
      where tenant_id = ${tenant.tenantId} and client_id = 'svc-rotated'`);
    expect((await clientCredentials('svc-rotated', ROTATED, OWNER)).status).toBe(200);
    expect((await clientCredentials('svc-rotated', ROTATED, ATTACKER)).status).toBe(200);
    await expectThrottled(await clientCredentials('svc-rotated', SECRET, ATTACKER));
  });

  it("never refuse the password grant of a confidential application's right secret", async () => {
    const password = (secret: string, address: string) =>
      postForm(
        server,
        tenant.name,
        '/token',
        {
          grant_type: 'password',
          client_id: 'svc-direct',
          client_secret: secret,
          username: tenant.adminEmail,
          password: tenant.password,
        },
        from(address),
      );
    for (let i = 0; i < BUDGET; i += 1) {
      expect((await password(`wrong-${i}`, ATTACKER)).status).toBe(401);
    }
    await expectThrottled(await password('wrong-again', ATTACKER));
    expect((await password(SECRET, OWNER)).status).toBe(200);
    expect((await password(SECRET, ATTACKER)).status).toBe(200);
  });

  it('never refuse token introspection with the right secret', async () => {
    const introspect = (secret: string, address: string) =>
      postForm(
        server,
        tenant.name,
        '/token/introspect',
        { token: 'not-a-token' },
        { ...basicAuth('svc-introspect', secret), ...from(address) },
      );
    for (let i = 0; i < BUDGET; i += 1) {
      expect((await introspect(`wrong-${i}`, ATTACKER)).status).toBe(401);
    }
    await expectThrottled(await introspect('wrong-again', ATTACKER));
    expect((await introspect(SECRET, OWNER)).status).toBe(200);
    expect((await introspect(SECRET, ATTACKER)).status).toBe(200);
  });
});
