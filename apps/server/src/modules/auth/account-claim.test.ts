import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { startSession } from '../../identity/sessions';
import {
  api,
  createTenant,
  refreshForm,
  signIn,
  tokenRequest,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { followLink, linkIn, NEW_PASSWORD, postJson, tenantHost } from '../../test/helpers/account';
import {
  GOOGLE_CLIENT_ID,
  postGoogleSignIn,
  startTestIssuer,
  type TestIssuer,
} from '../../test/helpers/google-test-issuer';

// An attacker signs up with the victim's address and a password of their own; the account
// stays unverified until the victim proves the mailbox through another channel.

let smtp: TestSmtpServer;
let issuer: TestIssuer;
let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  issuer = await startTestIssuer();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '100',
    GOOGLE_CLIENT_ID,
    GOOGLE_JWKS_URL: issuer.jwksUrl,
  });
  tenant = await createTenant(server.database.db);
  await server.database.db
    .update(tenants)
    .set({ allowSignup: true })
    .where(eq(tenants.id, tenant.tenantId));
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
  await smtp?.close();
});

const ATTACKER_PASSWORD = 'Attacker-pass#1';
const host = () => ({ host: tenantHost(server, tenant.domain) });
const passwordGrant = (email: string, password: string) =>
  tokenRequest(server, tenant.name, {
    client_id: 'react-client',
    grant_type: 'password',
    username: email,
    password,
  });

/** Signs up as the attacker would and returns the verification link the victim received. */
async function squat(email: string): Promise<URL> {
  const body = { fullName: 'Mallory', email, password: ATTACKER_PASSWORD };
  expect((await postJson(server, '/auth/signup', body, host())).status).toBe(202);
  return linkIn(await smtp.waitFor((m) => m.to.includes(email) && /Confirm/.test(m.subject)));
}

async function userId(email: string): Promise<string> {
  const [row] = await server.database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenant.tenantId), eq(users.email, email)));
  return row!.id;
}

describe('an unverified account claimed through Google', () => {
  it('loses the sign-up password, every session and every live link', async () => {
    const email = `${uniqueName('victim')}@example.test`;
    const verifyLink = await squat(email);
    // No route gives an unverified account a session; one made directly stands for any that
    // might exist some other way, and must end when the owner claims the account.
    const squatterSession = await startSession(
      server.database.db,
      { tenantId: tenant.tenantId, userId: await userId(email) },
      { absoluteSeconds: 3600, idleSeconds: 1800 },
      'react-client',
    );

    const google = await postGoogleSignIn(
      server,
      issuer,
      { email, given_name: 'Victor' },
      { 'tenant-id': tenant.tenantId },
    );
    expect(google.status).toBe(200);

    const refused = await passwordGrant(email, ATTACKER_PASSWORD);
    expect(refused.status).toBe(401);
    const refresh = await tokenRequest(
      server,
      tenant.name,
      refreshForm(squatterSession.refreshToken),
    );
    expect(refresh.status).toBe(400);
    expect((await followLink(server, verifyLink, '/auth/verify-email')).status).toBe(400);

    // The owner's own Google session works, and the claim is on the audit record.
    const me = await api(server, '/auth/me', google.body.access_token as string);
    expect(me.status).toBe(200);
    const id = await userId(email);
    const entries = await server.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, tenant.tenantId), eq(auditLog.entityId, id)));
    expect(entries).toContainEqual({ action: 'update', actorId: id });

    // The owner sets a password of their own the usual way.
    const forgot = await postJson(server, '/auth/forgot-password', { email }, host());
    expect(forgot.status).toBe(202);
    const reset = linkIn(
      await smtp.waitFor((m) => m.to.includes(email) && /Reset/.test(m.subject)),
    );
    const done = await followLink(server, reset, '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
    await signIn(server, tenant.name, email, NEW_PASSWORD);
    expect((await passwordGrant(email, ATTACKER_PASSWORD)).status).toBe(401);
  });

  it('leaves a verified account’s password alone', async () => {
    const email = `${uniqueName('own')}@example.test`;
    const verifyLink = await squat(email);
    expect((await followLink(server, verifyLink, '/auth/verify-email')).status).toBe(200);
    const google = await postGoogleSignIn(
      server,
      issuer,
      { email },
      { 'tenant-id': tenant.tenantId },
    );
    expect(google.status).toBe(200);
    await signIn(server, tenant.name, email, ATTACKER_PASSWORD);
  });
});

describe('an unverified account claimed through a reset link', () => {
  it('keeps only the new password and retires the sign-up’s verification link', async () => {
    const email = `${uniqueName('victim')}@example.test`;
    const verifyLink = await squat(email);
    expect((await postJson(server, '/auth/forgot-password', { email }, host())).status).toBe(202);
    const reset = linkIn(
      await smtp.waitFor((m) => m.to.includes(email) && /Reset/.test(m.subject)),
    );
    const done = await followLink(server, reset, '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);

    expect((await passwordGrant(email, ATTACKER_PASSWORD)).status).toBe(401);
    expect((await followLink(server, verifyLink, '/auth/verify-email')).status).toBe(400);
    await signIn(server, tenant.name, email, NEW_PASSWORD);
  });
});
