import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
let tenant: TenantFixture;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password)).access_token;
});
afterAll(() => server?.close());

const send = (method: string, path: string, body: unknown) =>
  api(server, path, token, { method, body: JSON.stringify(body) });

const valid = () => ({
  clientId: `app-${randomUUID().slice(0, 8)}`,
  name: 'Web shop',
  type: 'confidential',
  redirectUris: ['https://shop.example.com/callback'],
  grantTypes: ['authorization_code'],
});

const many = (count: number) => Array.from({ length: count }, (_, i) => `https://a.test/${i}`);

/** Each refusal: what is changed in a valid body, and the field and code it is refused on. */
const REFUSALS: [string, Record<string, unknown>, string, string][] = [
  ['an empty client ID', { clientId: ' ' }, 'clientId', 'client.id_required'],
  ['a client ID with a slash', { clientId: 'a/b' }, 'clientId', 'client.id_pattern'],
  ['a client ID with a space', { clientId: 'my app' }, 'clientId', 'client.id_pattern'],
  [
    'a client ID with a letter outside ASCII',
    { clientId: 'app-é' },
    'clientId',
    'client.id_pattern',
  ],
  ['a client ID of 101 characters', { clientId: 'a'.repeat(101) }, 'clientId', 'text.too_long'],
  ['an empty name', { name: '' }, 'name', 'name.required'],
  ['a name with a line break', { name: 'a\nb' }, 'name', 'text.control_in_line'],
  ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name', 'text.too_long'],
  ['an unknown type', { type: 'secret' }, 'type', 'client.type_invalid'],
  ['no grant type', { grantTypes: [] }, 'grantTypes', 'client.grant_required'],
  [
    'an unknown grant type',
    { grantTypes: ['implicit'] },
    'grantTypes.0',
    'client.grant_type_invalid',
  ],
  [
    'client_credentials for a public client',
    { type: 'public', grantTypes: ['client_credentials'] },
    'grantTypes',
    'client.grant_needs_confidential',
  ],
  [
    'refresh_token alone',
    { grantTypes: ['refresh_token', 'client_credentials'] },
    'grantTypes',
    'client.refresh_needs_grant',
  ],
  [
    'authorization_code without a redirect URI',
    { redirectUris: [] },
    'redirectUris',
    'client.grant_needs_redirect',
  ],
  [
    'service roles without client_credentials',
    { serviceRoleIds: [randomUUID()] },
    'serviceRoleIds',
    'client.service_roles_need_grant',
  ],
  [
    'a relative redirect URI',
    { redirectUris: ['/callback'] },
    'redirectUris.0',
    'client.redirect_uri_invalid',
  ],
  [
    'a redirect URI with a fragment',
    { redirectUris: ['https://a.test/cb#x'] },
    'redirectUris.0',
    'client.redirect_uri_fragment',
  ],
  [
    'a redirect URI with a wildcard',
    { redirectUris: ['https://*.a.test/cb'] },
    'redirectUris.0',
    'client.uri_wildcard',
  ],
  [
    'an http redirect URI off loopback',
    { redirectUris: ['http://a.test/cb'] },
    'redirectUris.0',
    'client.redirect_uri_scheme',
  ],
  [
    'a javascript: redirect URI',
    { redirectUris: ['javascript:alert(1)'] },
    'redirectUris.0',
    'client.redirect_uri_scheme',
  ],
  [
    'a redirect URI with credentials',
    { redirectUris: ['https://user:pw@a.test/cb'] },
    'redirectUris.0',
    'client.redirect_uri_invalid',
  ],
  [
    'a redirect URI of 2001 characters',
    { redirectUris: [`https://a.test/${'x'.repeat(1986)}`] },
    'redirectUris.0',
    'text.too_long',
  ],
  ['21 redirect URIs', { redirectUris: many(21) }, 'redirectUris', 'client.uris_too_many'],
  [
    'a post-logout URI with a fragment',
    { postLogoutRedirectUris: ['https://a.test/#bye'] },
    'postLogoutRedirectUris.0',
    'client.redirect_uri_fragment',
  ],
  [
    'an origin with a path',
    { webOrigins: ['https://a.test/app'] },
    'webOrigins.0',
    'client.origin_invalid',
  ],
  [
    'an origin with a slash',
    { webOrigins: ['https://a.test/'] },
    'webOrigins.0',
    'client.origin_invalid',
  ],
  [
    'an http origin off loopback',
    { webOrigins: ['http://a.test'] },
    'webOrigins.0',
    'client.origin_scheme',
  ],
  ['a wildcard origin', { webOrigins: ['*'] }, 'webOrigins.0', 'client.uri_wildcard'],
  [
    '21 origins',
    { webOrigins: many(21).map((_, i) => `https://a${i}.test`) },
    'webOrigins',
    'client.uris_too_many',
  ],
  [
    'an unknown signing algorithm',
    { idTokenSignedResponseAlg: 'HS256' },
    'idTokenSignedResponseAlg',
    'client.algorithm_invalid',
  ],
];

describe('validation', () => {
  it.each(REFUSALS)('refuses %s', async (_name, change, field, code) => {
    for (const [method, path, body] of [
      ['POST', '/clients/create', { ...valid(), ...change }],
      ['PUT', '/clients/update', { ...valid(), ...change, id: randomUUID() }],
    ] as const) {
      const response = await send(method, path, body);
      expect(response.status, path).toBe(400);
      const problem = await response.json();
      expect(problem.fields?.[field], JSON.stringify(problem)).toMatchObject({ code });
    }
  });

  it('takes loopback, native app and https addresses', async () => {
    const response = await send('POST', '/clients/create', {
      ...valid(),
      redirectUris: [
        'http://localhost:3000/cb',
        'http://127.0.0.1:8765/cb',
        'http://[::1]/cb',
        'com.example.app:/callback',
        'https://shop.example.com/callback?tenant=1',
        'https://shop.example.com/callback?tenant=1',
      ],
      webOrigins: ['http://localhost:3000', 'https://Shop.Example.com:443'],
      grantTypes: ['authorization_code', 'refresh_token', 'password', 'client_credentials'],
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { data } = await response.json();
    expect(data.redirectUris).toHaveLength(5);
    expect(data.webOrigins).toEqual(['http://localhost:3000', 'https://shop.example.com']);
  });
});

describe('paging', () => {
  it('filters by type, searches name and client ID, sorts by client ID', async () => {
    const tag = randomUUID().slice(0, 6);
    for (const [suffix, type] of [
      ['b', 'public'],
      ['a', 'confidential'],
      ['c', 'public'],
    ] as const) {
      const body = {
        ...valid(),
        clientId: `${tag}-${suffix}`,
        name: `Shop ${suffix} ${tag}`,
        type,
        grantTypes: ['password'],
      };
      expect((await send('POST', '/clients/create', body)).status).toBe(201);
    }
    const page = async (request: Record<string, unknown>) =>
      (
        (await (await send('POST', '/clients/page', request)).json()).data.data as {
          clientId: string;
        }[]
      ).map((row) => row.clientId);
    const sort = { field: 'clientId', direction: 1 };
    expect(await page({ filter: { search: tag }, listSort: sort })).toEqual(
      ['c', 'b', 'a'].map((s) => `${tag}-${s}`),
    );
    expect(await page({ filter: { search: tag, type: 'public' }, listSort: sort })).toEqual(
      ['c', 'b'].map((s) => `${tag}-${s}`),
    );
    expect(await page({ filter: { search: `a ${tag.toUpperCase()}` } })).toEqual([`${tag}-a`]);
    const refused = await send('POST', '/clients/page', { filter: { type: 'other' } });
    expect(refused.status).toBe(400);
  });
});
