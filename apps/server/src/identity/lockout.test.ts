import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, refreshForm, signIn, tokenRequest, uniqueName } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';

// Small numbers, same rules: 3 failures lock for 1 s more per failure (Keycloak: 30 and 60 s).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    BRUTE_FORCE_FAILURE_FACTOR: '3',
    BRUTE_FORCE_WAIT_INCREMENT: '1',
    BRUTE_FORCE_MAX_WAIT: '2',
    REFRESH_TOKEN_IDLE_TTL: '2',
  });
});
afterAll(() => server?.close());

const login = (realm: string, username: string, password: string) =>
  tokenRequest(server, realm, {
    client_id: 'react-client',
    grant_type: 'password',
    username,
    password,
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('brute-force protection', () => {
  it('locks after repeated failures with the usual answer, then times out', async () => {
    const tenant = await createTenant(server.database.db);
    for (let i = 0; i < 3; i += 1) {
      expect((await login(tenant.name, tenant.adminEmail, 'wrong')).status).toBe(401);
    }
    const locked = await login(tenant.name, tenant.adminEmail, tenant.password);
    expect(locked.status).toBe(401);
    expect(await locked.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid user credentials',
    });
    await sleep(1200);
    expect((await login(tenant.name, tenant.adminEmail, tenant.password)).status).toBe(200);
    // A success forgets the failures: one more failure does not lock again.
    expect((await login(tenant.name, tenant.adminEmail, 'wrong')).status).toBe(401);
    expect((await login(tenant.name, tenant.adminEmail, tenant.password)).status).toBe(200);
  });

  it('never locks the user with the same e-mail in another tenant', async () => {
    const email = `${uniqueName('same')}@example.test`;
    const a = await createTenant(server.database.db, { adminEmail: email });
    const b = await createTenant(server.database.db, { adminEmail: email });
    for (let i = 0; i < 4; i += 1) await login(a.name, email, 'wrong');
    expect((await login(a.name, email, a.password)).status).toBe(401);
    expect((await login(b.name, email, b.password)).status).toBe(200);
  });

  it('answers an unknown e-mail exactly like a locked one', async () => {
    const tenant = await createTenant(server.database.db);
    for (let i = 0; i < 4; i += 1) {
      const response = await login(tenant.name, 'nobody@example.test', 'wrong');
      expect(response.status).toBe(401);
      expect((await response.json()).error_description).toBe('Invalid user credentials');
    }
  });
});

describe('refresh token lifetimes', () => {
  it('ends a session left idle longer than REFRESH_TOKEN_IDLE_TTL', async () => {
    const tenant = await createTenant(server.database.db);
    const tokens = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    expect(tokens.refresh_expires_in).toBe(2);
    await sleep(2500);
    expect(
      (await tokenRequest(server, tenant.name, refreshForm(tokens.refresh_token))).status,
    ).toBe(400);
  });
});
