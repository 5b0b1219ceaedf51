import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '@tc/contract/security';
import {
  createSignedInTenant,
  refreshForm,
  tokenRequest,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { call, sessionIdOf, signInAgain } from '../../test/helpers/account-security';
import {
  REDIRECT,
  authorizationRequest,
  codeFlowTokens,
  expectErrorRedirect,
} from '../../test/helpers/conformance';
import { CookieJar, insertClient, issuerOf } from '../../test/helpers/relying-party';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Signed = TenantFixture & { token: string };

/** A tenant with an application of the code flow allowed the console API, its admin signed in. */
async function tenantWithApp(): Promise<Signed> {
  const tenant = await createSignedInTenant(server);
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'spa',
    redirectUris: [REDIRECT],
    // Its tokens are read back through the console API: an administrator allowed it.
    consoleApiAccess: true,
  });
  return tenant;
}

const sessionsOf = (token: string) =>
  call<{ data: Session[] }>(server, token, 'GET', '/account/sessions');
const whoAmI = async (token: string) => (await call(server, token, 'GET', '/account')).status;

/** The provider's browser sessions of a user. */
async function browserSessions(userId: string): Promise<number> {
  const result = (await server.database.db.execute(sql`
    select count(*)::int as n from oidc_payloads
    where model = 'Session' and payload->>'accountId' = ${userId}`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return result.rows[0]!.n;
}

/** Whether the browser of `jar` still signs in to the application without the password. */
async function silentSignIn(tenant: Signed, jar: CookieJar) {
  const config = await oidc.discovery(
    new URL(issuerOf(server, tenant.name)),
    'spa',
    undefined,
    oidc.None(),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  return jar.fetch((await authorizationRequest(config, { prompt: 'none', state: 's' })).url.href);
}

describe('own sessions', () => {
  it('lists the open sessions newest first, this one marked, with browser and application', async () => {
    const tenant = await tenantWithApp();
    const older = await signInAgain(server, tenant);
    const current = await signInAgain(server, tenant);
    const ended = await signInAgain(server, tenant);
    const expired = await signInAgain(server, tenant);
    const db = server.database.db;
    await db.execute(sql`update sessions set user_agent =
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        ip_address = '203.0.113.7' where id = ${sessionIdOf(older.access_token)}`);
    await db.execute(
      sql`update sessions set revoked_at = now() where id = ${sessionIdOf(ended.access_token)}`,
    );
    await db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where id = ${sessionIdOf(expired.access_token)}`,
    );

    const listed = await sessionsOf(current.access_token);
    expect(listed.status).toBe(200);
    const ids = listed.body.data.map((session) => session.id);
    expect(ids).toEqual([
      sessionIdOf(current.access_token),
      sessionIdOf(older.access_token),
      sessionIdOf(tenant.token),
    ]);
    expect(listed.body.data.map((session) => session.current)).toEqual([true, false, false]);
    expect(listed.body.data[1]).toMatchObject({
      browser: 'Chrome 131',
      os: 'Linux',
      ipAddress: '203.0.113.7',
      clientId: 'react-client',
      clientName: 'Tenant Console',
    });
    expect(Date.parse(listed.body.data[1]!.lastActiveAt)).not.toBeNaN();
  });

  it('ending one: its access token fails at the very next request and its refresh token is refused', async () => {
    const tenant = await tenantWithApp();
    const other = await signInAgain(server, tenant);
    // Answered before the ending: the ending must show at its very next request.
    expect(await whoAmI(other.access_token)).toBe(200);
    const revoked = await call(
      server,
      tenant.token,
      'POST',
      `/account/sessions/${sessionIdOf(other.access_token)}/revoke`,
    );
    expect(revoked).toMatchObject({ status: 200, body: { data: { revoked: 1 } } });
    expect(await whoAmI(other.access_token)).toBe(401);
    expect((await tokenRequest(server, tenant.name, refreshForm(other.refresh_token))).status).toBe(
      400,
    );
    expect(await whoAmI(tenant.token)).toBe(200);
    const again = await call(
      server,
      tenant.token,
      'POST',
      `/account/sessions/${sessionIdOf(other.access_token)}/revoke`,
    );
    expect(again.status).toBe(404);
  });

  it("another user's session, or none, is not found and nothing ends", async () => {
    const tenant = await tenantWithApp();
    const stranger = await createSignedInTenant(server);
    const theirs = sessionIdOf(stranger.token);
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000']) {
      const answer = await call(server, tenant.token, 'POST', `/account/sessions/${id}/revoke`);
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('session.not_found');
    }
    expect((await call(server, tenant.token, 'POST', '/account/sessions/nope/revoke')).status).toBe(
      400,
    );
    expect(await whoAmI(stranger.token)).toBe(200);
  });

  it('ending a code-flow session ends its grant at the provider and its browser sign-in', async () => {
    const tenant = await tenantWithApp();
    const jar = new CookieJar();
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });
    expect(await whoAmI(tokens.access_token)).toBe(200);
    expect(await browserSessions(tenant.adminId)).toBe(1);

    const revoked = await call(
      server,
      tenant.token,
      'POST',
      `/account/sessions/${sessionIdOf(tokens.access_token)}/revoke`,
    );
    expect(revoked.body.data).toEqual({ revoked: 1 });
    expect(await whoAmI(tokens.access_token)).toBe(401);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await browserSessions(tenant.adminId)).toBe(0);
    expectErrorRedirect(await silentSignIn(tenant, jar), {
      error: 'login_required',
      state: 's',
      iss: issuerOf(server, tenant.name),
    });
  });

  it('ending the others: password and code-flow sessions end, this one lives', async () => {
    const tenant = await tenantWithApp();
    const other = await signInAgain(server, tenant);
    const jar = new CookieJar();
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });
    expect(await whoAmI(other.access_token)).toBe(200);
    expect(await whoAmI(tokens.access_token)).toBe(200);

    const revoked = await call(server, tenant.token, 'POST', '/account/sessions/revoke-others');
    expect(revoked).toMatchObject({ status: 200, body: { data: { revoked: 2 } } });
    expect(await whoAmI(other.access_token)).toBe(401);
    expect(await whoAmI(tokens.access_token)).toBe(401);
    expect((await tokenRequest(server, tenant.name, refreshForm(other.refresh_token))).status).toBe(
      400,
    );
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await browserSessions(tenant.adminId)).toBe(0);
    expect(await whoAmI(tenant.token)).toBe(200);
    const left = await sessionsOf(tenant.token);
    expect(left.body.data.map((session) => session.id)).toEqual([sessionIdOf(tenant.token)]);
    const none = await call(server, tenant.token, 'POST', '/account/sessions/revoke-others');
    expect(none.body.data).toEqual({ revoked: 0 });
  });

  it('from a code-flow session, ending the others keeps its own browser sign-in', async () => {
    const tenant = await tenantWithApp();
    const jar = new CookieJar();
    const { tokens } = await codeFlowTokens(server, tenant, 'spa', { jar });
    const elsewhere = new CookieJar();
    await codeFlowTokens(server, tenant, 'spa', { jar: elsewhere });
    expect(await browserSessions(tenant.adminId)).toBe(2);

    const revoked = await call(
      server,
      tokens.access_token,
      'POST',
      '/account/sessions/revoke-others',
    );
    expect(revoked.body.data).toEqual({ revoked: 2 });
    expect(await browserSessions(tenant.adminId)).toBe(1);
    expect((await silentSignIn(tenant, jar)).headers.get('location')).toContain('code=');
    expectErrorRedirect(await silentSignIn(tenant, elsewhere), {
      error: 'login_required',
      state: 's',
      iss: issuerOf(server, tenant.name),
    });
  });

  it('ending the current session signs the caller out', async () => {
    const tenant = await tenantWithApp();
    const revoked = await call(
      server,
      tenant.token,
      'POST',
      `/account/sessions/${sessionIdOf(tenant.token)}/revoke`,
    );
    expect(revoked.body.data).toEqual({ revoked: 1 });
    expect(await whoAmI(tenant.token)).toBe(401);
  });
});
