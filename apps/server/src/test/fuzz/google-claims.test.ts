import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import {
  GOOGLE_CLIENT_ID,
  googleNonce,
  postGoogle,
  startTestIssuer,
  type TestIssuer,
} from '../helpers/google-test-issuer';
import { createTenant, type TenantFixture } from '../fixtures';
import { startTestServer, type TestServer } from '../harness';

/**
 * The claims of a Google ID token are input too: the route fuzzing found a NUL in a name
 * answered with a 500 (PostgreSQL refuses it in text). Names lose such characters; an
 * address with one is refused like any address Google does not vouch for.
 */
let issuer: TestIssuer;
let server: TestServer;
let tenant: TenantFixture;
beforeAll(async () => {
  issuer = await startTestIssuer();
  server = await startTestServer({ GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: issuer.jwksUrl });
  tenant = await createTenant(server.database.db);
  await server.database.db
    .update(tenants)
    .set({ allowSignup: true })
    .where(eq(tenants.id, tenant.tenantId));
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

/** As the sign-in screen does: a nonce for this browser, then the credential carrying it. */
async function signInWithGoogle(claims: Record<string, string>) {
  const inTenant = { 'tenant-id': tenant.tenantId };
  const { nonce, cookie } = await googleNonce(server, inTenant);
  const credential = await issuer.idToken({ ...claims, nonce });
  return postGoogle(server, { credential }, { ...inTenant, cookie });
}

async function storedNames(email: string) {
  const [row] = await server.database.db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.tenantId, tenant.tenantId), eq(users.email, email)));
  return row;
}

describe('Google claims with control characters', () => {
  it('signs up a user whose names had a NUL, a C1 control or an unpaired surrogate', async () => {
    const email = `ada@${tenant.domain}`;
    const answer = await signInWithGoogle({
      sub: 'google-ada',
      email,
      given_name: 'A\u0000da',
      family_name: 'Love\u0085lace\uD800',
    });
    expect(answer.status).toBe(200);
    expect(await storedNames(email)).toEqual({ firstName: 'A da', lastName: 'Love lace' });
  });

  it('refuses an address with a NUL like any address it cannot use', async () => {
    const answer = await signInWithGoogle({
      sub: 'google-nul',
      email: `a\u0000b@${tenant.domain}`,
    });
    expect(answer.status).toBe(401);
  });
});
