import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, tokenRequest } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';

// Password grants are limited per client address and per realm; the answer is the token
// endpoint's own error shape with Retry-After, and no password is checked past the limit.

let perAddress: TestServer;
let perRealm: TestServer;
beforeAll(async () => {
  perAddress = await startTestServer({ TOKEN_RATE_LIMIT: '3' });
  perRealm = await startTestServer({ TOKEN_RATE_LIMIT: '1000', TOKEN_REALM_RATE_LIMIT: '3' });
});
afterAll(async () => {
  await perAddress?.close();
  await perRealm?.close();
});

const grant = (server: TestServer, realm: string, username: string, password: string) =>
  tokenRequest(server, realm, {
    client_id: 'react-client',
    grant_type: 'password',
    username,
    password,
  });

describe('password grant rate limits', () => {
  it('answers 429 with Retry-After in the OAuth shape past the per-address limit', async () => {
    const tenant = await createTenant(perAddress.database.db);
    for (let i = 0; i < 3; i += 1) {
      expect((await grant(perAddress, tenant.name, 'nobody@example.test', 'x')).status).toBe(401);
    }
    const limited = await grant(perAddress, tenant.name, tenant.adminEmail, tenant.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(await limited.json()).toEqual({
      error: 'slow_down',
      error_description: expect.stringMatching(
        /^Too many sign-in attempts\. Try again in \d+ seconds\.$/,
      ),
    });
  });

  it('limits each realm on its own: a flood at one realm leaves another signing in', async () => {
    const flooded = await createTenant(perRealm.database.db);
    const quiet = await createTenant(perRealm.database.db);
    for (let i = 0; i < 3; i += 1) await grant(perRealm, flooded.name, 'nobody@example.test', 'x');
    const refused = await grant(perRealm, flooded.name, flooded.adminEmail, flooded.password);
    expect(refused.status).toBe(429);
    const other = await grant(perRealm, quiet.name, quiet.adminEmail, quiet.password);
    expect(other.status).toBe(200);
  });

  it('does not limit refresh grants', async () => {
    const tenant = await createTenant(perRealm.database.db);
    const tokens = (await (
      await grant(perRealm, tenant.name, tenant.adminEmail, tenant.password)
    ).json()) as { refresh_token: string };
    let refreshToken = tokens.refresh_token;
    for (let i = 0; i < 5; i += 1) {
      const response = await tokenRequest(perRealm, tenant.name, {
        client_id: 'react-client',
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
      expect(response.status).toBe(200);
      refreshToken = ((await response.json()) as { refresh_token: string }).refresh_token;
    }
  });
});
