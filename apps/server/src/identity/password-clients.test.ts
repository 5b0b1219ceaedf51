import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, tokenRequest, type TenantFixture } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import { insertClient } from '../test/helpers/relying-party';
import { digestClientSecret } from './openid/client-secret';

let server: TestServer;
let tenant: TenantFixture;
const SECRET = 'a-secret-of-thirty-two-random-bytes-0123';

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  const db = server.database.db;
  await insertClient(db, tenant.tenantId, {
    clientId: 'no-direct',
    grantTypes: ['authorization_code'],
    redirectUris: ['https://app.example.test/cb'],
  });
  await insertClient(db, tenant.tenantId, {
    clientId: 'direct',
    grantTypes: ['password', 'refresh_token'],
  });
  await insertClient(db, tenant.tenantId, {
    clientId: 'direct-server',
    type: 'confidential',
    secretDigest: digestClientSecret(SECRET),
    grantTypes: ['password', 'refresh_token'],
  });
});
afterAll(() => server?.close());

const grant = (clientId: string, extra: Record<string, string> = {}) =>
  tokenRequest(server, tenant.name, {
    grant_type: 'password',
    client_id: clientId,
    username: tenant.adminEmail,
    password: tenant.password,
    ...extra,
  });

describe('the password grant, switched per application', () => {
  it('is refused to an application without it, as Keycloak refuses direct access grants', async () => {
    const response = await grant('no-direct');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unauthorized_client' });
  });

  it('signs in for a public application with it, whose refresh tokens are its own', async () => {
    const response = await grant('direct');
    expect(response.status).toBe(200);
    const tokens = await response.json();
    const claims = JSON.parse(
      Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString(),
    );
    expect(claims.azp).toBe('direct');
    const elsewhere = await tokenRequest(server, tenant.name, {
      grant_type: 'refresh_token',
      client_id: 'react-client',
      refresh_token: tokens.refresh_token,
    });
    expect(elsewhere.status).toBe(401);
    const own = await tokenRequest(server, tenant.name, {
      grant_type: 'refresh_token',
      client_id: 'direct',
      refresh_token: tokens.refresh_token,
    });
    expect(own.status).toBe(200);
  });

  it('asks a confidential application for its secret', async () => {
    expect((await grant('direct-server')).status).toBe(401);
    expect((await grant('direct-server', { client_secret: 'wrong' })).status).toBe(401);
    expect((await grant('direct-server', { client_secret: SECRET })).status).toBe(200);
  });
});
