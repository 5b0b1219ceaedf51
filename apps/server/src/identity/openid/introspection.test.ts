import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { REDIRECT, basicAuth, codeFlowTokens, postForm } from '../../test/helpers/conformance';
import { insertClient } from '../../test/helpers/relying-party';
import { digestClientSecret } from './client-secret';

// Revocation (RFC 7009) by a confidential client, and introspection (RFC 7662), which only
// the realm's confidential clients may call and which describes only the realm's own tokens.

const SECRET = 'confidential-secret-0123456789abcdefghijklmnopqrstuvwxyz';
let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  other = await createTenant(server.database.db);
  for (const [fixture, clientId] of [
    [tenant, 'web'],
    [tenant, 'web2'],
    [other, 'web'],
  ] as const) {
    await insertClient(server.database.db, fixture.tenantId, {
      clientId,
      type: 'confidential',
      secretDigest: digestClientSecret(SECRET),
      redirectUris: [REDIRECT],
      // Allowed the console API, so that a revoked token is seen to stop there.
      consoleApiAccess: true,
    });
  }
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'spa',
    redirectUris: [REDIRECT],
  });
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'service',
    type: 'confidential',
    secretDigest: digestClientSecret(SECRET),
    grantTypes: ['client_credentials'],
  });
});
afterAll(() => server?.close());

const signIn = () => codeFlowTokens(server, tenant, 'web', { secret: SECRET });

const introspect = (realm: string, token: string, auth = basicAuth('web', SECRET)) =>
  postForm(server, realm, '/token/introspect', { token }, auth);

async function introspection(realm: string, token: string) {
  const response = await introspect(realm, token);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toContain('no-store');
  return (await response.json()) as Record<string, unknown>;
}

describe('revocation', () => {
  it('a confidential client revokes its refresh token, which ends the grant', async () => {
    const { config, tokens } = await signIn();
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(401);
  });

  it("another client cannot revoke a client's refresh token", async () => {
    const { config, tokens } = await signIn();
    const response = await postForm(
      server,
      tenant.name,
      '/revoke',
      { token: tokens.refresh_token! },
      basicAuth('web2', SECRET),
    );
    // RFC 7009 §2.1 refuses the request; the provider names it invalid_request.
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
    expect((await oidc.refreshTokenGrant(config, tokens.refresh_token!)).access_token).toBeTruthy();
  });
});

describe('introspection', () => {
  it('an active access token: active, with sub, client_id and exp', async () => {
    const { config, tokens } = await signIn();
    const answer = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(answer).toMatchObject({
      active: true,
      sub: tenant.adminId,
      client_id: 'web',
      exp: expect.any(Number),
    });
  });

  it('a public client is refused: 401 invalid_client', async () => {
    const { tokens } = await signIn();
    for (const auth of [{}, basicAuth('spa', '')]) {
      const response = await postForm(
        server,
        tenant.name,
        '/token/introspect',
        { token: tokens.access_token, client_id: 'spa' },
        auth,
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('a wrong secret is refused: 401 invalid_client', async () => {
    const { tokens } = await signIn();
    const response = await introspect(tenant.name, tokens.access_token, basicAuth('web', 'x'));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('a token whose grant was revoked is inactive', async () => {
    const { config, tokens } = await signIn();
    expect((await introspection(tenant.name, tokens.access_token)).active).toBe(true);
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    expect(await introspection(tenant.name, tokens.access_token)).toEqual({ active: false });
  });

  it('a refresh token of the code flow: active, with its client, user and scope, until revoked', async () => {
    const { config, tokens } = await signIn();
    expect(await introspection(tenant.name, tokens.refresh_token!)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
      client_id: 'web',
      sub: tenant.adminId,
      scope: expect.stringContaining('openid'),
      exp: expect.any(Number),
    });
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    expect(await introspection(tenant.name, tokens.refresh_token!)).toEqual({ active: false });
  });

  it('a client-credentials token: active, naming its client and no user', async () => {
    const response = await postForm(
      server,
      tenant.name,
      '/token',
      { grant_type: 'client_credentials' },
      basicAuth('service', SECRET),
    );
    const { access_token: token } = (await response.json()) as { access_token: string };
    const answer = await introspection(tenant.name, token);
    expect(answer).toMatchObject({ active: true, client_id: 'service', sub: 'service' });
    expect(answer).not.toHaveProperty('username');
    expect(await introspection(other.name, token)).toEqual({ active: false });
  });

  it('garbage is inactive', async () => {
    for (const token of ['garbage', 'a.b.c', 'x'.repeat(2000)]) {
      expect(await introspection(tenant.name, token)).toEqual({ active: false });
    }
  });

  it('a token of one realm is inactive at another, even for a client of the same id', async () => {
    const { tokens } = await signIn();
    expect(await introspection(other.name, tokens.access_token)).toEqual({ active: false });
  });
});
