import { SignJWT, decodeJwt, generateKeyPair, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingKeys } from '../db/schema/identity';
import {
  api,
  createTenant,
  refreshForm,
  signIn,
  tokenRequest,
  type TenantFixture,
} from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
let tenant: TenantFixture;
let token: string;

beforeAll(async () => {
  // Two-second access tokens, so expiry is observable (iat is whole seconds, so a token lives
  // between one and two seconds); tests needing a live one sign in afresh.
  server = await startTestServer({ ACCESS_TOKEN_TTL: '2', REFRESH_TOKEN_TTL: '2' });
  tenant = await createTenant(server.database.db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password)).access_token;
});
afterAll(() => server?.close());

/** Signs claims with the server's own private key, to prove the checks beyond the signature. */
async function signWithServerKey(claims: Record<string, unknown>) {
  const [key] = await server.database.db.select().from(signingKeys);
  const privateKey = await importJWK(key!.privateJwk as JWK, 'ES256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: key!.kid }).sign(privateKey);
}

describe('API guard', () => {
  it('accepts a valid token and tells who the caller is', async () => {
    const fresh = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password))
      .access_token;
    const response = await api(server, '/auth/me', fresh);
    expect(response.status).toBe(200);
    expect((await response.json()).data).toMatchObject({
      email: tenant.adminEmail,
      realm: tenant.name,
      roles: ['Admin'],
      superAdmin: false,
    });
  });

  it('answers 401 problem+json without a token or with a malformed one', async () => {
    for (const header of [undefined, 'Bearer', 'Bearer not-a-jwt', `Basic ${token}`]) {
      const response = await fetch(`${server.url}/api/v1.0/auth/me`, {
        headers: header ? { authorization: header } : {},
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('refuses a tampered payload', async () => {
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, permissions: ['*'] })).toString(
      'base64url',
    );
    expect((await api(server, '/auth/me', `${header}.${forged}.${signature}`)).status).toBe(401);
  });

  it('refuses alg: none', async () => {
    const claims = decodeJwt(token);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await api(server, '/auth/me', none)).status).toBe(401);
  });

  it('refuses a token signed by another key with our key id', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const [key] = await server.database.db.select().from(signingKeys);
    const forged = await new SignJWT(decodeJwt(token))
      .setProtectedHeader({ alg: 'ES256', kid: key!.kid })
      .sign(privateKey);
    expect((await api(server, '/auth/me', forged)).status).toBe(401);
  });

  it('refuses a token whose issuer names another realm', async () => {
    const other = await createTenant(server.database.db);
    const fresh = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password))
      .access_token;
    const claims = { ...decodeJwt(fresh), exp: Math.floor(Date.now() / 1000) + 60 };
    const forged = await signWithServerKey({
      ...claims,
      iss: `${server.url}/realms/${other.name}`,
    });
    expect((await api(server, '/auth/me', forged)).status).toBe(401);
    // The same claims with the right issuer pass: the issuer is what was refused.
    expect((await api(server, '/auth/me', await signWithServerKey(claims))).status).toBe(200);
  });

  it('refuses an expired token', async () => {
    const fresh = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password))
      .access_token;
    expect((await api(server, '/auth/me', fresh)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect((await api(server, '/auth/me', fresh)).status).toBe(401);
  });
});

describe('absolute session lifetime', () => {
  it('ends a session after REFRESH_TOKEN_TTL even while it is in use', async () => {
    const tokens = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    expect(tokens.refresh_expires_in).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const used = await tokenRequest(server, tenant.name, refreshForm(tokens.refresh_token));
    expect(used.status).toBe(200);
    const next = await used.json();
    expect(next.refresh_expires_in).toBeLessThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await tokenRequest(server, tenant.name, refreshForm(next.refresh_token))).status).toBe(
      400,
    );
  });
});
