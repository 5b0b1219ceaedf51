import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema/identity';
import { createTenant } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import {
  CookieJar,
  discover,
  insertClient,
  signInThroughHostedPage,
} from '../test/helpers/relying-party';

// Behind a reverse proxy every connection comes from the proxy: the client's own address,
// which rate limits and lockouts count by, is the one the proxy puts in X-Forwarded-For.
// Believed only from the proxies TRUST_PROXY names, or any client could pick its address.

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function serverWith(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer({ TOKEN_RATE_LIMIT: '2', ...env });
  servers.push(server);
  return server;
}

const grantFrom = (server: TestServer, forwardedFor: string) =>
  fetch(`${server.url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'x-forwarded-for': forwardedFor },
    body: new URLSearchParams({
      client_id: 'react-client',
      grant_type: 'password',
      username: 'nobody@example.test',
      password: 'wrong',
    }),
  });

describe('The client address behind a proxy', () => {
  it('is the forwarded one when the proxy is trusted: each client has its own limit', async () => {
    const server = await serverWith({ TRUST_PROXY: 'loopback' });
    expect((await grantFrom(server, '203.0.113.1')).status).toBe(401);
    expect((await grantFrom(server, '203.0.113.1')).status).toBe(401);
    expect((await grantFrom(server, '203.0.113.1')).status).toBe(429);
    // Another client behind the same proxy is not held back by the first one's attempts.
    expect((await grantFrom(server, '203.0.113.2')).status).toBe(401);
  }, 60_000);

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const server = await serverWith({ TRUST_PROXY: '192.0.2.10' });
    expect((await grantFrom(server, '203.0.113.1')).status).toBe(401);
    expect((await grantFrom(server, '203.0.113.2')).status).toBe(401);
    // A made-up address does not escape the limit of the connection's own.
    expect((await grantFrom(server, '203.0.113.3')).status).toBe(429);
  }, 60_000);

  it("is the one an application's sign-in through the hosted page records", async () => {
    const server = await serverWith({ TRUST_PROXY: 'loopback' });
    const tenant = await createTenant(server.database.db);
    const redirectUri = 'http://localhost:4000/callback';
    await insertClient(server.database.db, tenant.tenantId, {
      clientId: 'spa',
      redirectUris: [redirectUri],
    });
    const config = await discover(server, tenant.name, 'spa');
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    // The provider answers the raw request itself: it must not take the proxy for the client.
    const browser = new CookieJar({ 'x-forwarded-for': '198.51.100.7' });
    await signInThroughHostedPage(server, browser, url, {
      username: tenant.adminEmail,
      password: tenant.password,
    });
    const recorded = await server.database.db
      .select({ ipAddress: sessions.ipAddress })
      .from(sessions)
      .where(eq(sessions.userId, tenant.adminId));
    expect(recorded.map((session) => session.ipAddress)).toEqual(['198.51.100.7']);
  }, 60_000);
});
