import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  GOOGLE_CLIENT_ID,
  googleNonce,
  postGoogle,
  startTestIssuer,
  type TestIssuer,
} from '../../test/helpers/google-test-issuer';

let issuer: TestIssuer;
let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  issuer = await startTestIssuer();
  server = await startTestServer({ GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: issuer.jwksUrl });
  tenant = await createTenant(server.database.db);
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

/**
 * Posts a credential as the sign-in screen does: a nonce for this browser first, which the
 * credential is made with (every one but the defect under test is right, nonce included).
 */
async function post(credential: (nonce: string) => Promise<string>) {
  const headers = { 'tenant-id': tenant.tenantId };
  const { nonce, cookie } = await googleNonce(server, headers);
  expect(nonce).toEqual(expect.any(String));
  return postGoogle(server, { credential: await credential(nonce!) }, { ...headers, cookie });
}

describe('Google ID token verification', () => {
  it('accepts both of Google’s issuer spellings', async () => {
    for (const iss of ['https://accounts.google.com', 'accounts.google.com']) {
      const answer = await post((nonce) =>
        issuer.idToken({ email: tenant.adminEmail, nonce }, { issuer: iss }),
      );
      expect(answer.status).toBe(200);
    }
  });

  const refused: [string, (nonce: string) => Promise<string>][] = [
    [
      'another audience',
      (nonce) =>
        issuer.idToken(
          { email: tenant.adminEmail, nonce },
          { audience: 'someone-else.apps.googleusercontent.com' },
        ),
    ],
    [
      'another issuer',
      (nonce) =>
        issuer.idToken({ email: tenant.adminEmail, nonce }, { issuer: 'https://evil.example' }),
    ],
    [
      'an expired token',
      (nonce) =>
        issuer.idToken(
          { email: tenant.adminEmail, nonce },
          { expiresAt: Math.floor(Date.now() / 1000) - 3600 },
        ),
    ],
    [
      'an unverified e-mail address',
      (nonce) => issuer.idToken({ email: tenant.adminEmail, email_verified: false, nonce }),
    ],
    ['no e-mail address', (nonce) => issuer.idToken({ nonce })],
    [
      'a signature by another key',
      (nonce) => issuer.idToken({ email: tenant.adminEmail, nonce }, { forged: true }),
    ],
    ['a string that is no token', async () => 'not-a-jwt'],
    [
      'an unsigned token',
      async (nonce) => {
        const header = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url');
        const claims = Buffer.from(
          JSON.stringify({
            iss: 'https://accounts.google.com',
            aud: GOOGLE_CLIENT_ID,
            sub: '1',
            email: tenant.adminEmail,
            email_verified: true,
            nonce,
            iat: Math.floor(Date.now() / 1000),
            exp: Math.floor(Date.now() / 1000) + 600,
          }),
        ).toString('base64url');
        return `${header}.${claims}.`;
      },
    ],
  ];

  it.each(refused)('refuses %s with 401 and the spec’s words', async (_name, credential) => {
    const answer = await post(credential);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({
      status: 401,
      code: 'google.sign_in_failed',
      detail: 'Google Sign-In failed. Please try again.',
    });
    expect(answer.body).not.toHaveProperty('access_token');
  });

  it('answers 400 when the credential is missing', async () => {
    const answer = await postGoogle(server, {}, { 'tenant-id': tenant.tenantId });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveProperty('credential');
  });
});

describe('without GOOGLE_CLIENT_ID', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(() => plain?.close());

  it('answers 404 "not configured", whatever the body', async () => {
    const unconfigured = await createTenant(plain.database.db);
    for (const body of [{ credential: await issuer.idToken({ email: 'a@b.test' }) }, {}]) {
      const answer = await postGoogle(plain, body, { 'tenant-id': unconfigured.tenantId });
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe('Google sign-in is not configured.');
    }
  });
});
