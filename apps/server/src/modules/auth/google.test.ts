import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { roles, users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { api, createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertUser } from '../users';
import type { JWTPayload } from 'jose';
import {
  GOOGLE_CLIENT_ID,
  googleNonce,
  postGoogle,
  postGoogleSignIn,
  startTestIssuer,
  type TestIssuer,
} from '../../test/helpers/google-test-issuer';
import { enrolTotp, setMfaPolicy, TestPasskey } from '../../test/helpers/second-factor-sign-in';

let issuer: TestIssuer;
let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  issuer = await startTestIssuer();
  server = await startTestServer({
    GOOGLE_CLIENT_ID,
    GOOGLE_JWKS_URL: issuer.jwksUrl,
  });
  tenant = await createTenant(server.database.db);
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

const db = () => server.database.db;
const inTenant = (t: { tenantId: string }) => ({ 'tenant-id': t.tenantId });

/**
 * A Google sign-in as the sign-in screen makes it: a nonce for this browser first, then
 * Google's credential carrying it, sent from the same browser (its cookie).
 */
function postGoogleAs(claims: JWTPayload, headers: Record<string, string> = {}) {
  return postGoogleSignIn(server, issuer, claims, headers);
}

async function signupTenant(allowSignup: boolean) {
  const created = await createTenant(db());
  await db().update(tenants).set({ allowSignup }).where(eq(tenants.id, created.tenantId));
  return created;
}

async function userRow(tenantId: string, email: string) {
  const [row] = await db()
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      passwordHash: users.passwordHash,
      emailVerified: users.emailVerified,
      role: roles.name,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)));
  return row;
}

async function me(accessToken: string) {
  const response = await api(server, '/auth/me', accessToken);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: string; tenantId: string; roles: string[] } })
    .data;
}

describe('Google sign-in of an existing user', () => {
  it('answers our token response, whose access token works on the API', async () => {
    const answer = await postGoogleAs({ email: tenant.adminEmail }, inTenant(tenant));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 300,
      refresh_expires_in: expect.any(Number),
      token_type: 'Bearer',
      tenantId: tenant.tenantId,
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/password/i);
    const caller = await me(answer.body.access_token as string);
    expect(caller).toMatchObject({ id: tenant.adminId, tenantId: tenant.tenantId });
  });

  it('matches the e-mail address regardless of case', async () => {
    const answer = await postGoogleAs({ email: tenant.adminEmail.toUpperCase() }, inTenant(tenant));
    expect(answer.status).toBe(200);
    expect(answer.body.tenantId).toBe(tenant.tenantId);
  });

  it('lets an invited user without a password in and marks the address verified', async () => {
    const email = `invited@${tenant.domain}`;
    await insertUser(db(), {
      tenantId: tenant.tenantId,
      email,
      firstName: 'Ivy',
      lastName: 'Invited',
      roleId: tenant.memberRoleId,
    });
    await db().update(users).set({ emailVerified: false }).where(eq(users.email, email));
    const answer = await postGoogleAs({ email }, inTenant(tenant));
    expect(answer.status).toBe(200);
    expect(await userRow(tenant.tenantId, email)).toMatchObject({
      passwordHash: null,
      emailVerified: true,
    });
  });

  it('refuses a disabled account with 403', async () => {
    const email = `inactive@${tenant.domain}`;
    await insertUser(db(), {
      tenantId: tenant.tenantId,
      email,
      firstName: 'Ina',
      lastName: 'Active',
      roleId: tenant.memberRoleId,
      status: 'inactive',
    });
    const answer = await postGoogleAs({ email }, inTenant(tenant));
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(/^Account disabled/);
    expect(answer.body).not.toHaveProperty('access_token');
  });
});

describe('the nonce a Google credential is bound to', () => {
  const FAILED = { status: 401, body: { code: 'google.sign_in_failed' } };

  it('refuses a credential without a nonce', async () => {
    const { cookie } = await googleNonce(server, inTenant(tenant));
    const credential = await issuer.idToken({ email: tenant.adminEmail });
    const answer = await postGoogle(server, { credential }, { ...inTenant(tenant), cookie });
    expect(answer).toMatchObject(FAILED);
  });

  it("refuses one carrying another sign-in's nonce: another browser's, or one never given", async () => {
    const theirs = await googleNonce(server, inTenant(tenant));
    const mine = await googleNonce(server, inTenant(tenant));
    const credential = await issuer.idToken({ email: tenant.adminEmail, nonce: theirs.nonce });
    const fromMine = { ...inTenant(tenant), cookie: mine.cookie };
    expect(await postGoogle(server, { credential }, fromMine)).toMatchObject(FAILED);
    const made = await issuer.idToken({ email: tenant.adminEmail, nonce: 'made-up-nonce' });
    expect(await postGoogle(server, { credential: made }, fromMine)).toMatchObject(FAILED);
  });

  it("refuses another tenant's nonce", async () => {
    const other = await createTenant(db());
    const { nonce, cookie } = await googleNonce(server, inTenant(other));
    const credential = await issuer.idToken({ email: tenant.adminEmail, nonce });
    const answer = await postGoogle(server, { credential }, { ...inTenant(tenant), cookie });
    expect(answer).toMatchObject(FAILED);
  });

  it('accepts the right nonce from its browser, once', async () => {
    const { nonce, cookie } = await googleNonce(server, inTenant(tenant));
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const credential = await issuer.idToken({ email: tenant.adminEmail, nonce });
    const headers = { ...inTenant(tenant), cookie };
    expect((await postGoogle(server, { credential }, headers)).status).toBe(200);
    expect(await postGoogle(server, { credential }, headers)).toMatchObject(FAILED);
  });
});

describe('Google sign-up', () => {
  it('creates a Member without a password when the tenant allows sign-up, audited', async () => {
    const open = await signupTenant(true);
    const email = `grace@${open.domain}`;
    const claims = { email, given_name: 'Grace', family_name: 'Hopper', name: 'Grace Hopper' };
    const answer = await postGoogleAs(claims, inTenant(open));
    expect(answer.status).toBe(200);
    expect(answer.body.tenantId).toBe(open.tenantId);
    const row = await userRow(open.tenantId, email);
    expect(row).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      passwordHash: null,
      emailVerified: true,
      role: 'Member',
    });
    const caller = await me(answer.body.access_token as string);
    expect(caller).toMatchObject({ id: row!.id, tenantId: open.tenantId, roles: ['Member'] });
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, open.tenantId), eq(auditLog.entityId, row!.id)));
    expect(entries).toMatchObject([{ action: 'create', entity: 'users', actorId: row!.id }]);

    // The second Google sign-in finds the account instead of creating another.
    const again = await postGoogleAs(claims, inTenant(open));
    expect(again.status).toBe(200);
    const all = await db().select().from(users).where(eq(users.tenantId, open.tenantId));
    expect(all.filter((u) => u.email === email)).toHaveLength(1);
  });

  it('takes the names from `name` when given and family names are missing', async () => {
    const open = await signupTenant(true);
    const email = `alan@${open.domain}`;
    const claims = { email, name: 'Alan Mathison Turing' };
    expect((await postGoogleAs(claims, inTenant(open))).status).toBe(200);
    expect(await userRow(open.tenantId, email)).toMatchObject({
      firstName: 'Alan',
      lastName: 'Mathison Turing',
    });
  });

  it('refuses an unknown address with 403 when sign-up is off, creating nobody', async () => {
    const closed = await signupTenant(false);
    const email = `stranger@${closed.domain}`;
    const answer = await postGoogleAs({ email }, inTenant(closed));
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(/does not allow sign-up/);
    expect(await userRow(closed.tenantId, email)).toBeUndefined();
  });
});

describe('the tenant of a Google sign-in', () => {
  it('comes from the Tenant-ID header: a user of tenant A gets no tokens for tenant B', async () => {
    const other = await signupTenant(false);
    const answer = await postGoogleAs({ email: tenant.adminEmail }, inTenant(other));
    expect(answer.status).toBe(403);
    expect(answer.body).not.toHaveProperty('access_token');
    expect(await userRow(other.tenantId, tenant.adminEmail)).toBeUndefined();
  });

  it('comes from the host name when there is no header', async () => {
    const answer = await postGoogleAs({ email: tenant.adminEmail }, { host: tenant.domain });
    expect(answer.status).toBe(200);
    expect(answer.body.tenantId).toBe(tenant.tenantId);
    expect((await me(answer.body.access_token as string)).id).toBe(tenant.adminId);
  });

  it('answers 404 for an unknown tenant', async () => {
    const credential = await issuer.idToken({ email: tenant.adminEmail });
    const unknown = { 'tenant-id': '00000000-0000-4000-8000-000000000000' };
    expect((await postGoogle(server, { credential }, unknown)).status).toBe(404);
    const host = { host: 'nobody.example.test' };
    expect((await postGoogle(server, { credential }, host)).status).toBe(404);
  });

  it('is offered by identify for tenants but not for the master realm', async () => {
    const identify = async (headers: Record<string, string>) => {
      const response = await fetch(`${server.url}/api/v1.0/tenants/identify`, { headers });
      const body = (await response.json()) as {
        data: { googleEnabled: boolean; googleClientId: string | null };
      };
      return body.data;
    };
    expect(await identify(inTenant(tenant))).toMatchObject({
      googleEnabled: true,
      googleClientId: GOOGLE_CLIENT_ID,
    });
    expect(await identify({})).toMatchObject({ googleEnabled: false, googleClientId: null });
  });

  it('is never the master realm, not even for an existing super administrator', async () => {
    const answer = await postGoogleAs({ email: server.config.bootstrapAdminEmail });
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(/Super administrators/);
  });
});

describe('Google sign-in of an account with a second factor', () => {
  const REFUSED = {
    status: 403,
    body: {
      code: 'google.second_factor_required',
      detail: 'This account signs in with a second factor: use the sign-in page.',
    },
  };
  const signIn = async (t: TenantFixture, email = t.adminEmail) =>
    postGoogleAs({ email }, inTenant(t));

  it('issues no tokens to a user with an authenticator app or a passkey', async () => {
    const withApp = await createTenant(db());
    await enrolTotp(server, { id: withApp.adminId, tenantId: withApp.tenantId });
    const withPasskey = await createTenant(db());
    await new TestPasskey().register(server, {
      tenantId: withPasskey.tenantId,
      userId: withPasskey.adminId,
    });
    for (const t of [withApp, withPasskey]) {
      const answer = await signIn(t);
      expect(answer).toMatchObject(REFUSED);
      expect(answer.body).not.toHaveProperty('access_token');
    }
  });

  it("issues none where the tenant's policy requires a second factor of the account", async () => {
    const strict = await signupTenant(true);
    await setMfaPolicy(server, strict.tenantId, 'admins');
    expect(await signIn(strict)).toMatchObject(REFUSED);
    // A Member is not asked for one under "admins"; under "everyone" they are.
    const email = `member@${strict.domain}`;
    expect((await signIn(strict, email)).status).toBe(200);
    await setMfaPolicy(server, strict.tenantId, 'everyone');
    expect(await signIn(strict, email)).toMatchObject(REFUSED);
  });
});
