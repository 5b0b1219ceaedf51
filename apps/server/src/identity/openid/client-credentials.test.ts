import { sql } from 'drizzle-orm';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { basicAuth, postForm } from '../../test/helpers/conformance';
import { discover, insertClient, issuerOf } from '../../test/helpers/relying-party';
import { digestClientSecret } from './client-secret';

// The client credentials grant (RFC 6749 §4.4): a confidential application's own tokens,
// carrying the roles and permissions of its service roles, and no user.

const SECRET = 'service-secret-0123456789abcdefghijklmnopqrstuvwxyz';
let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  for (const clientId of ['service', 'service-wrong', 'service-neighbour']) {
    await insertConfidential(clientId);
  }
  await server.database.db.execute(sql`
    insert into client_service_roles (client_row_id, role_id)
    select id, ${tenant.adminRoleId} from clients
    where tenant_id = ${tenant.tenantId} and client_id = 'service'`);
  // A public client the console would never save: client_credentials without a secret.
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'public-service',
    grantTypes: ['client_credentials'],
  });
});
afterAll(() => server?.close());

function insertConfidential(clientId: string) {
  return insertClient(server.database.db, tenant.tenantId, {
    clientId,
    type: 'confidential',
    secretDigest: digestClientSecret(SECRET),
    grantTypes: ['client_credentials'],
  });
}

const grant = (clientId: string, secret: string) =>
  postForm(
    server,
    tenant.name,
    '/token',
    { grant_type: 'client_credentials' },
    basicAuth(clientId, secret),
  );

async function expectInvalidClient(response: Response) {
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ error: 'invalid_client' });
}

describe('client credentials grant', () => {
  it('client_secret_basic: a JWT of the service roles, for no user', async () => {
    const config = await discover(server, tenant.name, 'service', SECRET);
    const tokens = await oidc.clientCredentialsGrant(config);
    const issuer = issuerOf(server, tenant.name);
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer });
    expect(payload).toMatchObject({
      sub: 'service',
      client_id: 'service',
      tenant_id: tenant.tenantId,
      realm_access: { roles: ['Admin'] },
    });
    expect(payload.permissions).toEqual(expect.arrayContaining(['clients:read', 'clients:write']));
    for (const userClaim of ['sid', 'email', 'preferred_username']) {
      expect(payload).not.toHaveProperty(userClaim);
    }
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();
  });

  it('client_secret_post', async () => {
    const config = await oidc.discovery(
      new URL(issuerOf(server, tenant.name)),
      'service',
      undefined,
      oidc.ClientSecretPost(SECRET),
      { execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await oidc.clientCredentialsGrant(config);
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  it('a client without service roles gets a token with none', async () => {
    const response = await grant('service-neighbour', SECRET);
    expect(response.status).toBe(200);
    const { access_token: token } = (await response.json()) as { access_token: string };
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({ sub: 'service-neighbour', realm_access: { roles: [] } });
    expect(payload.permissions).toEqual([]);
  });

  it('a wrong secret: 401 invalid_client', async () => {
    await expectInvalidClient(await grant('service-wrong', `${SECRET}x`));
    await expectInvalidClient(
      await postForm(server, tenant.name, '/token', {
        grant_type: 'client_credentials',
        client_id: 'service-wrong',
        client_secret: 'not-it',
      }),
    );
  });

  it('a client with no secret is refused, whatever its registered grants', async () => {
    for (const clientId of ['public-service', 'react-client']) {
      const response = await postForm(server, tenant.name, '/token', {
        grant_type: 'client_credentials',
        client_id: clientId,
      });
      // The provider's code for a grant the client may not use; RFC 6749 §5.2 would say
      // unauthorized_client, which it defines for an authenticated client, and these are not.
      expect(response.status, clientId).toBe(400);
      expect(await response.json()).toMatchObject({
        error: 'invalid_request',
        error_description: 'requested grant type is not allowed for this client',
      });
    }
  });
});
