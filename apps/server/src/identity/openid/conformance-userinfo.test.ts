import { desc, eq, sql } from 'drizzle-orm';
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
} from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingKeys } from '../../db/schema/identity';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  REDIRECT,
  claimsOf,
  codeFlowTokens,
  setIdTokenAlgorithm,
} from '../../test/helpers/conformance';
import { insertClient, issuerOf } from '../../test/helpers/relying-party';

// ID tokens, userinfo and scopes, after the OpenID Foundation's Basic OP conformance modules.

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  for (const clientId of ['spa', 'spa-es256']) {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId,
      redirectUris: [REDIRECT],
    });
  }
  await setIdTokenAlgorithm(server, tenant.tenantId, 'spa-es256', 'ES256');
});
afterAll(() => server?.close());

const userinfoUrl = () => `${issuerOf(server, tenant.name)}/protocol/openid-connect/userinfo`;

/** Verifies an ID token against the JWKS the realm's discovery names, as any RP would. */
async function verifyIdToken(config: oidc.Configuration, idToken: string, clientId: string) {
  const metadata = config.serverMetadata();
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri!));
  return jwtVerify(idToken, jwks, { issuer: metadata.issuer, audience: clientId });
}

async function expectInvalidToken(response: Response) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
}

describe('ID tokens', () => {
  it('oidcc-id-token-signature: RS256 by default, verified against the JWKS of discovery', async () => {
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa');
    const { protectedHeader, payload } = await verifyIdToken(config, tokens.id_token!, 'spa');
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.sub).toBe(tenant.adminId);
    // A flipped signature is caught: the check above is a real one.
    const [head, body, signature] = tokens.id_token!.split('.');
    const flipped = `${head}.${body}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    await expect(verifyIdToken(config, flipped, 'spa')).rejects.toThrow();
  });

  it('oidcc-id-token-signature: ES256 for a client registered with it', async () => {
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa-es256');
    const { protectedHeader } = await verifyIdToken(config, tokens.id_token!, 'spa-es256');
    expect(protectedHeader.alg).toBe('ES256');
  });

  it('oidcc-ensure-request-with-nonce: the nonce comes back in the ID token', async () => {
    const { request, tokens } = await codeFlowTokens(server, tenant, 'spa');
    expect(claimsOf(tokens.id_token!).nonce).toBe(request.nonce);
  });

  it('oidcc-ensure-request-without-nonce-succeeds-for-code-flow', async () => {
    const { tokens } = await codeFlowTokens(server, tenant, 'spa', { extra: { nonce: '' } });
    expect(claimsOf(tokens.id_token!).nonce).toBeUndefined();
  });
});

describe('userinfo', () => {
  it('oidcc-userinfo-get', async () => {
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tenant.adminId);
    expect(info).toMatchObject({ sub: tenant.adminId, email: tenant.adminEmail });
  });

  it('oidcc-userinfo-post-header', async () => {
    const { tokens } = await codeFlowTokens(server, tenant, 'spa');
    const response = await fetch(userinfoUrl(), {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sub: tenant.adminId });
  });

  it('oidcc-userinfo-post-body', async () => {
    const { tokens } = await codeFlowTokens(server, tenant, 'spa');
    const response = await fetch(userinfoUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: tokens.access_token }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sub: tenant.adminId });
  });

  it('a garbage token: 401 with WWW-Authenticate error="invalid_token"', async () => {
    for (const token of ['garbage', 'a.b.c']) {
      await expectInvalidToken(
        await fetch(userinfoUrl(), { headers: { authorization: `Bearer ${token}` } }),
      );
    }
    await expectInvalidToken(await fetch(userinfoUrl()));
  });

  it('an expired token: 401 with WWW-Authenticate error="invalid_token"', async () => {
    const { tokens } = await codeFlowTokens(server, tenant, 'spa');
    // The same token, signed with the realm's own key, but expired an hour ago.
    const [row] = await server.database.db
      .select()
      .from(signingKeys)
      .where(eq(signingKeys.kid, decodeProtectedHeader(tokens.access_token).kid!))
      .orderBy(desc(signingKeys.createdAt));
    const key = await importJWK(row!.privateJwk as JWK, row!.alg);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({
      ...claimsOf(tokens.access_token),
      iat: now - 7200,
      exp: now - 3600,
    })
      .setProtectedHeader(decodeProtectedHeader(tokens.access_token) as { alg: string })
      .sign(key);
    await expectInvalidToken(
      await fetch(userinfoUrl(), { headers: { authorization: `Bearer ${expired}` } }),
    );
  });
});

describe('scopes', () => {
  it('oidcc-scope-profile: profile claims, the language among them, and no e-mail', async () => {
    await server.database.db.execute(
      sql`update users set locale = 'de' where id = ${tenant.adminId}`,
    );
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa', {
      extra: { scope: 'openid profile' },
    });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tenant.adminId);
    for (const claims of [info, claimsOf(tokens.id_token!)]) {
      expect(claims).toMatchObject({
        given_name: 'Ada',
        family_name: 'Admin',
        name: 'Ada Admin',
        locale: 'de',
      });
      expect(claims).not.toHaveProperty('email');
    }
  });

  it('oidcc-scope-email: e-mail claims, and no profile', async () => {
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa', {
      extra: { scope: 'openid email' },
    });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tenant.adminId);
    for (const claims of [info, claimsOf(tokens.id_token!)]) {
      expect(claims).toMatchObject({ email: tenant.adminEmail, email_verified: true });
      expect(claims).not.toHaveProperty('given_name');
      expect(claims).not.toHaveProperty('name');
      expect(claims).not.toHaveProperty('locale');
    }
  });
});
