import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
let tenant: TenantFixture;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
});
afterAll(() => server?.close());

describe('standard OpenID clients accept our tokens', () => {
  it('openid-client: discovery, password grant, refresh', async () => {
    const issuer = new URL(`${server.url}/realms/${tenant.name}`);
    const config = await client.discovery(issuer, 'react-client', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    expect(config.serverMetadata().issuer).toBe(issuer.href);
    const tokens = await client.genericGrantRequest(config, 'password', {
      username: tenant.adminEmail,
      password: tenant.password,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    await expect(
      client.genericGrantRequest(config, 'password', {
        username: tenant.adminEmail,
        password: 'x',
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('jose.createRemoteJWKSet verifies an access token against the JWKS', async () => {
    const issuer = `${server.url}/realms/${tenant.name}`;
    const form = new URLSearchParams({
      client_id: 'react-client',
      grant_type: 'password',
      username: tenant.adminEmail,
      password: tenant.password,
    });
    const { access_token: token } = await (
      await fetch(`${issuer}/protocol/openid-connect/token`, { method: 'POST', body: form })
    ).json();
    const jwks = createRemoteJWKSet(new URL(`${issuer}/protocol/openid-connect/certs`));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload.sub).toBe(tenant.adminId);
  });
});
