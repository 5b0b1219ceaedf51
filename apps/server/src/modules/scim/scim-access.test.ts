import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, disableTenant, signIn } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { newUser, patchOf, roleWith, scimApplication, scimTenant } from '../../test/helpers/scim';

// Who may use SCIM, and how bad input is answered: always a SCIM error, never a 5xx.

let server: TestServer;
let scim: Awaited<ReturnType<typeof scimTenant>>;
let userId: string;

beforeAll(async () => {
  server = await startTestServer();
  scim = await scimTenant(server);
  userId = (await scim.call('POST', '/Users', newUser('target@example.org'))).body.id;
});
afterAll(() => server?.close());

function expectScimError(
  answer: { status: number; headers: Headers; body: unknown },
  status: number,
  scimType?: string,
) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.headers.get('content-type')).toContain('application/scim+json');
  expect(answer.body).toMatchObject({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    ...(scimType ? { scimType } : {}),
  });
}

describe('SCIM authentication', () => {
  it('refuses no token, a garbage token, a console user token and another tenant’s token', async () => {
    const { access_token: console } = await signIn(
      server,
      scim.tenant.name,
      scim.tenant.adminEmail,
      scim.tenant.password,
    );
    const other = await scimTenant(server);
    for (const token of ['', 'garbage', console, other.token]) {
      expectScimError(await scim.call('GET', '/Users', undefined, {}, token), 401);
    }
    // The right token on the wrong realm.
    const wrongRealm = await fetch(`${server.url}/scim/v2/${other.tenant.name}/Users`, {
      headers: { authorization: `Bearer ${scim.token}` },
    });
    expect(wrongRealm.status).toBe(401);
  });

  it('refuses an application without scim (403), and one whose client is gone (401)', async () => {
    const roleId = await roleWith(server, scim.tenant.tenantId, 'Readers', ['users:read']);
    const noScim = await scimApplication(server, scim.tenant, 'no-scim', [roleId]);
    expectScimError(await scim.call('GET', '/Users', undefined, {}, noScim), 403);
    const doomed = await scimApplication(server, scim.tenant, 'doomed', [scim.tenant.adminRoleId]);
    expect((await scim.call('GET', '/Users', undefined, {}, doomed)).status).toBe(200);
    await server.database.db.execute(
      sql`delete from clients where client_id = 'doomed' and tenant_id = ${scim.tenant.tenantId}`,
    );
    expectScimError(await scim.call('GET', '/Users', undefined, {}, doomed), 401);
  });

  it('refuses every token of a disabled tenant', async () => {
    const tenant = await createTenant(server.database.db);
    const token = await scimApplication(server, tenant, 'app', [tenant.adminRoleId]);
    const call = () =>
      fetch(`${server.url}/scim/v2/${tenant.name}/Users`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await call()).status).toBe(200);
    await disableTenant(server.database.db, tenant.tenantId);
    expect((await call()).status).toBe(401);
  });

  it('serves the discovery resources without a token', async () => {
    const base = `${server.url}/scim/v2/${scim.tenant.name}`;
    const config = await (await fetch(`${base}/ServiceProviderConfig`)).json();
    expect(config).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      etag: { supported: true },
    });
    const types = await (await fetch(`${base}/ResourceTypes`)).json();
    expect(types.Resources.map((type: { id: string }) => type.id)).toEqual(['User', 'Group']);
    const schemas = await (await fetch(`${base}/Schemas`)).json();
    expect(schemas.totalResults).toBe(2);
    expect((await fetch(`${server.url}/scim/v2/no-such-tenant/ServiceProviderConfig`)).status).toBe(
      404,
    );
  });
});

describe('SCIM bad input', () => {
  const deep = `${'('.repeat(11)}userName eq "a"${')'.repeat(11)}`;
  const long = `userName eq "${'a'.repeat(1000)}"`;
  const filters: Array<[string, string]> = [
    ['too deep', deep],
    ['too long', long],
    ['not SCIM syntax', 'userName eq'],
    ['an unknown attribute', 'shoeSize eq "42"'],
    ['a date that is not one', 'meta.lastModified gt "yesterday"'],
    ['a NUL', 'userName eq "a\u0000b"'],
  ];
  it.each(filters)('a filter that is %s: 400 invalidFilter', async (_, filter) => {
    expectScimError(
      await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`),
      400,
      'invalidFilter',
    );
  });

  const bodies: Array<[string, string, string, unknown, string]> = [
    ['malformed JSON', 'POST', '/Users', '{"userName": ', 'invalidSyntax'],
    [
      'an unknown attribute',
      'POST',
      '/Users',
      newUser('x1@example.org', { shoeSize: 42 }),
      'invalidSyntax',
    ],
    ['a userName that is no e-mail', 'POST', '/Users', newUser('not-an-email'), 'invalidValue'],
    [
      'control characters in a name',
      'POST',
      '/Users',
      newUser('x2@example.org', { name: { givenName: 'a\u0007b' } }),
      'invalidValue',
    ],
    [
      'active that is no boolean',
      'POST',
      '/Users',
      newUser('x3@example.org', { active: 'maybe' }),
      'invalidValue',
    ],
    [
      'a PATCH of id',
      'PATCH',
      'user',
      patchOf({ op: 'replace', path: 'id', value: 'x' }),
      'mutability',
    ],
    [
      'a PATCH of meta',
      'PATCH',
      'user',
      patchOf({ op: 'replace', path: 'meta.created', value: 'x' }),
      'mutability',
    ],
    [
      'a PATCH of an unknown path',
      'PATCH',
      'user',
      patchOf({ op: 'replace', path: 'shoeSize', value: 1 }),
      'invalidPath',
    ],
    [
      'a PATCH op that is none',
      'PATCH',
      'user',
      patchOf({ op: 'move', path: 'active', value: true }),
      'invalidSyntax',
    ],
    ['a PATCH without operations', 'PATCH', 'user', { schemas: [] }, 'invalidSyntax'],
    ['a remove without path', 'PATCH', 'user', patchOf({ op: 'remove' }), 'noTarget'],
  ];
  it.each(bodies)('%s: 400 and nothing changed', async (_, method, path, body, scimType) => {
    const before = (await scim.call('GET', `/Users/${userId}`)).body;
    const target = path === 'user' ? `/Users/${userId}` : path;
    expectScimError(await scim.call(method, target, body), 400, scimType);
    expect((await scim.call('GET', `/Users/${userId}`)).body).toEqual(before);
  });

  it('accepts application/json as well as application/scim+json', async () => {
    const answer = await fetch(`${server.url}/scim/v2/${scim.tenant.name}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${scim.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(newUser('plain-json@example.org')),
    });
    expect(answer.status).toBe(201);
  });

  it('an unknown SCIM path is 404', async () => {
    expect((await scim.call('GET', '/Widgets')).status).toBe(404);
  });
});
