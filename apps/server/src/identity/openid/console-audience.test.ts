import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE } from '@tc/contract/permissions';
import { callApi, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { limitedUser, seedTenant, type SeededTenant } from '../../test/admin-api/entities';
import { authorizationRequest, claimsOf, REDIRECT } from '../../test/helpers/conformance';
import { CookieJar, discover, signInThroughHostedPage } from '../../test/helpers/relying-party';

// Finding: an application's token was a console token. A user holding only clients:write
// registered an application, had the Admin sign in to it, and used the Admin's token at the
// console API to make themselves Admin. The console API now takes only the console's own
// tokens and those of applications an administrator allowed to call it.

let server: TestServer;
let tenant: SeededTenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await seedTenant(server);
});
afterAll(() => server?.close());

const application = (clientId: string, extra: Record<string, unknown> = {}) => ({
  clientId,
  name: clientId,
  type: 'public',
  grantTypes: ['authorization_code', 'refresh_token'],
  redirectUris: [REDIRECT],
  ...extra,
});

/** The code flow through openid-client, signed in on the hosted page as this user. */
async function tokensFor(
  owner: TenantFixture,
  clientId: string,
  credentials: { username: string; password: string },
) {
  const config = await discover(server, owner.name, clientId);
  const request = await authorizationRequest(config);
  const callback = await signInThroughHostedPage(server, new CookieJar(), request.url, credentials);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
  return { config, tokens };
}

/** An application's row as its form sends it back: without what the server keeps itself. */
function formOf(row: Record<string, unknown>) {
  const fields = { ...row };
  for (const key of ['createdAt', 'updatedAt', 'builtIn']) delete fields[key];
  return fields;
}

const admin = () => ({ username: tenant.adminEmail, password: tenant.password });

describe('an application registered by a user with clients:write', () => {
  it("gets the Admin's token for itself only: the console API refuses it", async () => {
    const author = await limitedUser(server, tenant, ['clients:read', 'clients:write']);
    const created = await callApi(server, author.token, 'POST', '/clients/create', {
      ...application('lure'),
    });
    expect(created.status).toBe(201);

    const { config, tokens } = await tokensFor(tenant, 'lure', admin());
    expect(claimsOf(tokens.access_token).aud).toBe('lure');
    const { body: me } = await callApi<Record<string, unknown>>(
      server,
      tenant.token,
      'GET',
      `/users/${author.userId}`,
    );
    const promoted = await callApi(server, tokens.access_token, 'PUT', '/users/update', {
      ...me.data,
      roleId: tenant.adminRoleId,
    });
    expect(promoted.status).toBe(401);
    const after = await callApi<{ roleId: string }>(
      server,
      tenant.token,
      'GET',
      `/users/${author.userId}`,
    );
    expect(after.body.data.roleId).toBe(author.roleId);
    // Still a good token for what it is for: the user's identity at userinfo.
    const info = await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck);
    expect(info.email).toBe(tenant.adminEmail);
  });

  it('cannot make it first-party or give it the console API', async () => {
    const author = await limitedUser(server, tenant, ['clients:read', 'clients:write']);
    for (const field of ['firstParty', 'consoleApiAccess']) {
      const refused = await callApi(server, author.token, 'POST', '/clients/create', {
        ...application(`trusted-${field.toLowerCase()}`, { [field]: true }),
      });
      expect(refused.status).toBe(403);
      expect(Object.keys((refused.body as unknown as { fields: object }).fields)).toEqual([field]);
    }
  });

  it("cannot add its own address to the console's client", async () => {
    const author = await limitedUser(server, tenant, ['clients:read', 'clients:write']);
    const { body } = await callApi<{ data: Array<Record<string, unknown>> }>(
      server,
      author.token,
      'POST',
      '/clients/page',
      { pageIndex: 1, pageSize: 100, filter: { search: 'react-client' } },
    );
    const console = body.data.data.find((row) => row.builtIn)!;
    const fields = formOf(console);
    const changed = await callApi(server, author.token, 'PUT', '/clients/update', {
      ...fields,
      redirectUris: [REDIRECT],
    });
    expect(changed.status).toBe(409);
    const again = await callApi<Record<string, unknown>>(
      server,
      tenant.token,
      'GET',
      `/clients/${console.id as string}`,
    );
    expect(again.body.data.redirectUris).toEqual([]);
  });
});

describe('an application an administrator trusted', () => {
  it("stays where the administrator pointed it: its addresses and secret are not the author's", async () => {
    const author = await limitedUser(server, tenant, ['clients:read', 'clients:write']);
    const created = await callApi<{ id: string }>(server, tenant.token, 'POST', '/clients/create', {
      ...application('trusted-app', { type: 'confidential', consoleApiAccess: true }),
    });
    const id = created.body.data.id;
    const read = async () =>
      (await callApi<Record<string, unknown>>(server, tenant.token, 'GET', `/clients/${id}`)).body
        .data;
    const before = await read();
    const moved = await callApi(server, author.token, 'PUT', '/clients/update', {
      ...formOf(before),
      redirectUris: ['https://author.example/cb'],
    });
    expect(moved.status).toBe(403);
    expect((moved.body as unknown as { fields: object }).fields).toEqual({
      redirectUris: { code: 'grant.trusted_client_change' },
    });
    const rotated = await callApi(server, author.token, 'POST', `/clients/${id}/rotate-secret`);
    expect(rotated.status).toBe(403);
    expect(await read()).toEqual(before);
    // Its name is no way in: the author may still rename it.
    const renamed = await callApi(server, author.token, 'PUT', '/clients/update', {
      ...formOf(before),
      name: 'Renamed',
    });
    expect(renamed.status).toBe(200);
  });
});

describe("a third-party application's token for a reader", () => {
  it('is refused by the console API', async () => {
    const reader = await limitedUser(server, tenant, ['users:read']);
    await callApi(server, tenant.token, 'POST', '/clients/create', application('reader-app'));
    const { body } = await callApi<{ email: string }>(
      server,
      tenant.token,
      'GET',
      `/users/${reader.userId}`,
    );
    const { tokens } = await tokensFor(tenant, 'reader-app', {
      username: body.data.email,
      password: tenant.password,
    });
    const page = await callApi(server, tokens.access_token, 'POST', '/users/page', {
      pageIndex: 1,
      pageSize: 10,
    });
    expect(page.status).toBe(401);
  });
});

describe('an application an administrator allowed the console API', () => {
  it('calls it with its user permissions, until the administrator withdraws it', async () => {
    const created = await callApi<{ id: string }>(server, tenant.token, 'POST', '/clients/create', {
      ...application('companion', { consoleApiAccess: true }),
    });
    expect(created.status).toBe(201);
    const { tokens } = await tokensFor(tenant, 'companion', admin());
    const me = await callApi<{ roles: string[] }>(server, tokens.access_token, 'GET', '/auth/me');
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body.data)).toContain(ADMIN_ROLE);

    const { body: row } = await callApi<Record<string, unknown>>(
      server,
      tenant.token,
      'GET',
      `/clients/${created.body.data.id}`,
    );
    const fields = formOf(row.data);
    const withdrawn = await callApi(server, tenant.token, 'PUT', '/clients/update', {
      ...fields,
      consoleApiAccess: false,
    });
    expect(withdrawn.status).toBe(200);
    expect((await callApi(server, tokens.access_token, 'GET', '/auth/me')).status).toBe(401);
  });
});
