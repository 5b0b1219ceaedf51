import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { call } from '../../test/helpers/account-security';
import { codeFlowTokens, REDIRECT } from '../../test/helpers/conformance';
import { CookieJar, insertClient } from '../../test/helpers/relying-party';

// A grant made by single sign-on opens a new session without a password: that session proves
// its user only as recently as the browser's sign-in did, not from its own start.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Two of the tenant's own applications whose users' tokens the console API accepts. */
async function twoTrustedApplications(tenantId: string) {
  for (const clientId of ['sso-first', 'sso-second']) {
    await insertClient(server.database.db, tenantId, {
      clientId,
      redirectUris: [REDIRECT],
      firstParty: true,
      consoleApiAccess: true,
    });
  }
}

describe('a session opened by single sign-on', () => {
  it('needs a new proof for a security change once the browser signed in long ago', async () => {
    const tenant = await createTenant(server.database.db);
    await twoTrustedApplications(tenant.tenantId);
    const jar = new CookieJar();
    const first = await codeFlowTokens(server, tenant, 'sso-first', { jar });
    const fresh = await call(server, first.tokens.access_token, 'POST', '/account/mfa/totp/setup');
    expect(fresh.status).toBe(200);

    // The browser's sign-in moved an hour into the past, as if it had happened then.
    await server.database.db.execute(sql`
      update oidc_payloads
      set payload = jsonb_set(payload, '{loginTs}', to_jsonb(extract(epoch from now())::int - 3600))
      where model = 'Session' and tenant_id = ${tenant.tenantId}`);
    const second = await codeFlowTokens(server, tenant, 'sso-second', { jar });

    const refused = await call(
      server,
      second.tokens.access_token,
      'POST',
      '/account/mfa/totp/setup',
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('auth.reverification_required');
  });
});
