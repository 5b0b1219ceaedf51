import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/identity';
import { tenants } from '../db/schema/tenants';
import {
  api,
  createTenant,
  disableTenant,
  refreshForm,
  signIn,
  tokenRequest,
  type TenantFixture,
} from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
});
afterAll(() => server?.close());

const passwordForm = (username: string, password: string) => ({
  client_id: 'react-client',
  grant_type: 'password',
  username,
  password,
});

describe('password grant', () => {
  it('answers Keycloak’s token response with a token for the user’s tenant', async () => {
    const response = await tokenRequest(
      server,
      tenant.name,
      passwordForm(tenant.adminEmail, tenant.password),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 300,
      tenantId: tenant.tenantId,
      refresh_expires_in: expect.any(Number),
    });
    const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({
      iss: `${server.url}/realms/${tenant.name}`,
      sub: tenant.adminId,
      tenant_id: tenant.tenantId,
      email: tenant.adminEmail,
      name: 'Ada Admin',
      realm_access: { roles: ['Admin'] },
    });
    expect(claims.permissions).toContain('users:write');
    expect(claims.exp - claims.iat).toBe(300);
  });

  it('matches the e-mail case-insensitively', async () => {
    const response = await tokenRequest(
      server,
      tenant.name,
      passwordForm(tenant.adminEmail.toUpperCase(), tenant.password),
    );
    expect(response.status).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail with the same words', async () => {
    const wrong = await tokenRequest(server, tenant.name, passwordForm(tenant.adminEmail, 'nope'));
    const unknown = await tokenRequest(server, tenant.name, passwordForm('ghost@x.test', 'nope'));
    const expected = { error: 'invalid_grant', error_description: 'Invalid user credentials' };
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(expected);
    expect(await unknown.json()).toEqual(expected);
    const noUsername = { client_id: 'react-client', grant_type: 'password', password: 'nope' };
    const missing = await tokenRequest(server, tenant.name, noUsername);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual(expected);
  });

  it('refuses another client, another grant type and an unknown or disabled realm', async () => {
    const form = passwordForm(tenant.adminEmail, tenant.password);
    const client = await tokenRequest(server, tenant.name, { ...form, client_id: 'other' });
    expect(client.status).toBe(401);
    expect((await client.json()).error).toBe('invalid_client');

    const grant = await tokenRequest(server, tenant.name, {
      ...form,
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
    });
    expect(grant.status).toBe(400);
    expect((await grant.json()).error).toBe('unsupported_grant_type');
    // The console is a public client: client credentials are not its to use.
    const credentials = await tokenRequest(server, tenant.name, {
      client_id: 'react-client',
      grant_type: 'client_credentials',
    });
    expect(credentials.status).toBe(400);

    expect((await tokenRequest(server, 'no-such-realm', form)).status).toBe(404);
    const other = await createTenant(server.database.db);
    await disableTenant(server.database.db, other.tenantId);
    expect(
      (await tokenRequest(server, other.name, passwordForm(other.adminEmail, other.password)))
        .status,
    ).toBe(404);
  });

  it('does not sign in a user of another realm', async () => {
    const other = await createTenant(server.database.db);
    const response = await tokenRequest(
      server,
      tenant.name,
      passwordForm(other.adminEmail, other.password),
    );
    expect(response.status).toBe(401);
  });

  it('refuses an inactive user, and refresh stops working for them', async () => {
    const other = await createTenant(server.database.db);
    const tokens = await signIn(server, other.name, other.adminEmail, other.password);
    await server.database.db
      .update(users)
      .set({ status: 'inactive' })
      .where(eq(users.id, other.adminId));
    const login = await tokenRequest(
      server,
      other.name,
      passwordForm(other.adminEmail, other.password),
    );
    expect(login.status).toBe(400);
    expect((await login.json()).error).toBe('invalid_grant');
    expect((await tokenRequest(server, other.name, refreshForm(tokens.refresh_token))).status).toBe(
      400,
    );
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(401);
  });

  it('refuses an invited user who has no password yet', async () => {
    const other = await createTenant(server.database.db);
    await server.database.db
      .update(users)
      .set({ passwordHash: null })
      .where(eq(users.id, other.adminId));
    const login = await tokenRequest(server, other.name, passwordForm(other.adminEmail, ''));
    expect(login.status).toBe(401);
  });
});

describe('refresh grant', () => {
  it('rotates the refresh token and issues a fresh access token', async () => {
    const first = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    const response = await tokenRequest(server, tenant.name, refreshForm(first.refresh_token));
    expect(response.status).toBe(200);
    const second = await response.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await api(server, '/auth/me', second.access_token)).status).toBe(200);
  });

  it('revokes the whole session family when a rotated token is presented again', async () => {
    const first = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    const second = await (
      await tokenRequest(server, tenant.name, refreshForm(first.refresh_token))
    ).json();
    // Its caller is now known to the API (and kept for the next request).
    expect((await api(server, '/auth/me', second.access_token)).status).toBe(200);
    const replay = await tokenRequest(server, tenant.name, refreshForm(first.refresh_token));
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    // The legitimate newest token dies with the family, and so do its access tokens.
    expect(
      (await tokenRequest(server, tenant.name, refreshForm(second.refresh_token))).status,
    ).toBe(400);
    expect((await api(server, '/auth/me', second.access_token)).status).toBe(401);
  });

  it('refuses an unknown token, a token of another realm and another client', async () => {
    const tokens = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    expect((await tokenRequest(server, tenant.name, refreshForm('made-up'))).status).toBe(400);
    const other = await createTenant(server.database.db);
    expect((await tokenRequest(server, other.name, refreshForm(tokens.refresh_token))).status).toBe(
      400,
    );
    const client = await tokenRequest(server, tenant.name, {
      ...refreshForm(tokens.refresh_token),
      client_id: 'x',
    });
    expect(client.status).toBe(401);
    // None of those attempts spent the token.
    expect(
      (await tokenRequest(server, tenant.name, refreshForm(tokens.refresh_token))).status,
    ).toBe(200);
  });

  it('stops working when the tenant is deleted, and so do its access tokens', async () => {
    const other = await createTenant(server.database.db);
    const tokens = await signIn(server, other.name, other.adminEmail, other.password);
    await server.database.db.delete(tenants).where(eq(tenants.id, other.tenantId));
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(401);
    expect((await tokenRequest(server, other.name, refreshForm(tokens.refresh_token))).status).toBe(
      404,
    );
  });
});

describe('logout', () => {
  it('revokes the session: its refresh and access tokens stop working', async () => {
    const tokens = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    const response = await fetch(
      `${server.url}/realms/${tenant.name}/protocol/openid-connect/logout`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: 'react-client',
          refresh_token: tokens.refresh_token,
        }),
      },
    );
    expect(response.status).toBe(204);
    expect(
      (await tokenRequest(server, tenant.name, refreshForm(tokens.refresh_token))).status,
    ).toBe(400);
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(401);
  });

  it('answers an unknown refresh token with invalid_grant', async () => {
    const response = await fetch(
      `${server.url}/realms/${tenant.name}/protocol/openid-connect/logout`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: 'react-client', refresh_token: 'nope' }),
      },
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_grant');
  });
});
