import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  CookieJar,
  discover,
  insertClient,
  issuerOf,
  signInThroughHostedPage,
} from '../../test/helpers/relying-party';

let server: TestServer;
let tenant: TenantFixture;
const REDIRECT = 'http://localhost:4000/callback';

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'spa',
    redirectUris: [REDIRECT],
    postLogoutRedirectUris: ['http://localhost:4000/bye'],
    // Its tokens are taken by our API below: an administrator allowed it.
    consoleApiAccess: true,
  });
});
afterAll(() => server?.close());

async function authorizationRequest(
  config: oidc.Configuration,
  extra: Record<string, string> = {},
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

describe('authorization code flow with openid-client as the relying party', () => {
  it('signs in on the hosted page, exchanges the code, reads userinfo, refreshes and revokes', async () => {
    const config = await discover(server, tenant.name, 'spa');
    const jar = new CookieJar();
    const request = await authorizationRequest(config);
    const callback = await signInThroughHostedPage(server, jar, request.url, {
      username: tenant.adminEmail,
      password: tenant.password,
    });
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(request.state);
    expect(callback.searchParams.get('iss')).toBe(issuerOf(server, tenant.name));

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const idClaims = tokens.claims()!;
    expect(idClaims).toMatchObject({
      sub: tenant.adminId,
      aud: 'spa',
      nonce: request.nonce,
      email: tenant.adminEmail,
      email_verified: true,
      given_name: 'Ada',
    });
    expect(idClaims.auth_time).toEqual(expect.any(Number));
    expect(
      JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()).alg,
    ).toBe('RS256');

    // The access token is one our API takes, with the claims it reads.
    const me = await api(server, '/auth/me', tokens.access_token);
    expect(me.status).toBe(200);
    const access = JSON.parse(
      Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString(),
    );
    expect(access).toMatchObject({
      tenant_id: tenant.tenantId,
      realm_access: { roles: ['Admin'] },
    });

    const info = await oidc.fetchUserInfo(config, tokens.access_token, tenant.adminId);
    expect(info).toMatchObject({ sub: tenant.adminId, email: tenant.adminEmail });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await api(server, '/auth/me', refreshed.access_token)).status).toBe(200);

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // Revoking the refresh token ended the grant, and with it the session its tokens name.
    expect((await api(server, '/auth/me', refreshed.access_token)).status).toBe(401);
  });

  it('signs a second application in from the browser session, without the password (single sign-on)', async () => {
    const config = await discover(server, tenant.name, 'spa');
    const jar = new CookieJar();
    const first = await authorizationRequest(config);
    await signInThroughHostedPage(server, jar, first.url, {
      username: tenant.adminEmail,
      password: tenant.password,
    });
    const second = await authorizationRequest(config);
    const callback = await signInThroughHostedPage(server, jar, second.url);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });
});
