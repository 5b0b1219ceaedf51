import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID } from '@tc/contract/permissions';
import { callApi, createSignedInTenant, tokenRequest } from '../fixtures';
import { startTestServer, type TestServer } from '../harness';

/**
 * Control characters and unpaired surrogates, found once by an outside probe: each was a 500
 * (PostgreSQL refuses NUL in text) or stored as U+FFFD. Now a 400 naming the field, and at
 * the identity provider an OAuth error whatever is wrong with the request.
 */
let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await createSignedInTenant(server);
});
afterAll(() => server?.close());

const realmUrl = (realm: string, endpoint: string) =>
  `${server.url}/realms/${realm}/protocol/openid-connect/${endpoint}`;

async function expectOAuthError(response: Response, status = 400) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error).toBe('invalid_request');
  return body.error_description;
}

describe('the identity provider answers any bad input in the OAuth shape', () => {
  const passwordGrant = { client_id: CLIENT_ID, grant_type: 'password', password: 'x' };

  it.each([
    ['NUL', 'a\u0000b@example.test'],
    ['a C1 control', 'a\u0085b@example.test'],
    ['a line break', 'a\nb@example.test'],
    ['DEL', 'a\u007Fb@example.test'],
  ])('refuses %s in the username, naming the field', async (_what, username) => {
    const response = await tokenRequest(server, tenant.name, { ...passwordGrant, username });
    expect(await expectOAuthError(response)).toContain('username');
  });

  it('refuses a refresh token with a NUL, at the token and the logout endpoints', async () => {
    const form = { client_id: CLIENT_ID, refresh_token: 'a\u0000b' };
    const refresh = await tokenRequest(server, tenant.name, {
      ...form,
      grant_type: 'refresh_token',
    });
    expect(await expectOAuthError(refresh)).toContain('refresh_token');
    const logout = await fetch(realmUrl(tenant.name, 'logout'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    expect(await expectOAuthError(logout)).toContain('refresh_token');
  });

  it.each([
    ['a JSON body', 'application/json', JSON.stringify({ grant_type: 'password' })],
    ['malformed JSON', 'application/json', '{"a":'],
    ['a text body', 'text/plain', 'grant_type=password'],
    ['a CSV body', 'text/csv', 'x'],
    ['a repeated field', 'application/x-www-form-urlencoded', 'username=a&username=b'],
    ['an oversized value', 'application/x-www-form-urlencoded', `password=${'x'.repeat(2000)}`],
    ['a body over the limit', 'application/x-www-form-urlencoded', `a=${'x'.repeat(2 << 20)}`],
  ])('refuses %s', async (_what, contentType, body) => {
    const response = await fetch(realmUrl(tenant.name, 'token'), {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    await expectOAuthError(response);
  });

  it('refuses a NUL in the client credentials of HTTP Basic as no client at all', async () => {
    // "%00:" and "a:%00", form-encoded inside Basic as RFC 6749 §2.3.1 has it.
    for (const basic of ['%00:', 'a:%00']) {
      const response = await fetch(realmUrl(tenant.name, 'token'), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(basic).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'password', username: 'a', password: 'b' }),
      });
      expect(response.status, basic).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('refuses no body at all', async () => {
    await expectOAuthError(await fetch(realmUrl(tenant.name, 'token'), { method: 'POST' }));
  });

  it.each([
    ['a NUL', 'a%00b'],
    ['a C1 control', 'a%C2%85b'],
    ['an unpaired surrogate', 'a%ED%A0%80b'],
    ['a broken escape', 'a%zz'],
    ['a name of 5,000 characters', 'a'.repeat(5000)],
  ])('refuses %s in the realm of the discovery and key endpoints', async (_what, realm) => {
    for (const path of ['protocol/openid-connect/certs', '.well-known/openid-configuration']) {
      await expectOAuthError(await fetch(`${server.url}/realms/${realm}/${path}`));
    }
  });

  it('still answers an unknown realm with 404', async () => {
    await expectOAuthError(await fetch(realmUrl('no-such-realm', 'certs')), 404);
  });
});

describe('the API refuses control characters with a 400 naming the field', () => {
  const call = (method: string, path: string, body: unknown) =>
    callApi<{ name: string }>(server, tenant.token, method, path, body);

  it.each([
    ['NUL', 'a\u0000'],
    ['an unpaired surrogate', 'a\uD800'],
    ['DEL', 'a\u007F'],
  ])('in filter.search (%s)', async (_what, search) => {
    for (const entity of ['users', 'roles', 'permissions', 'projects', 'audit']) {
      const { status, body } = await call('POST', `/${entity}/page`, { filter: { search } });
      expect(status).toBe(400);
      expect(body.errors).toHaveProperty(['filter.search']);
    }
  });

  it('in a name, and nothing is stored', async () => {
    for (const name of ['Ops\u0000', 'Ops\uD800', 'Ops\nteam', 'Ops\u009B']) {
      const { status, body } = await call('POST', '/roles/create', { name });
      expect(status).toBe(400);
      expect(body.errors).toHaveProperty('name');
    }
    const page = await call('POST', '/roles/page', { filter: { search: 'Ops' } });
    expect(page.body.data.totalCount).toBe(0);
  });

  it('in a description, where line breaks and tabs are welcome', async () => {
    const role = { name: 'Support', description: 'Answers\ttickets.\r\nAnd mail.' };
    const created = await call('POST', '/roles/create', role);
    expect(created.status).toBe(201);
    const refused = await call('POST', '/roles/create', { ...role, description: 'a\u0000' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('description');
  });

  it('in a public sign-up', async () => {
    const response = await fetch(`${server.url}/api/v1.0/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'tenant-id': tenant.tenantId },
      body: JSON.stringify({
        fullName: 'Ada\u0000',
        email: 'ada@example.test',
        password: 'Lovelace-1815!',
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: object }).errors).toHaveProperty('fullName');
  });

  // A header carries Latin-1: a tab or a C1 control can arrive, and has no place there.
  it.each([
    ['tenant-id', 'a\u0085b'],
    ['tenant-id', 'a\tb'],
    ['accept-language', 'de\u009B'],
  ])('in the %s header (%j)', async (name, value) => {
    const response = await fetch(`${server.url}/api/v1.0/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'tenant-id': tenant.tenantId, [name]: value },
      body: JSON.stringify({ email: 'ada@example.test' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: object }).errors).toHaveProperty([name]);
  });

  it('in a path parameter that cannot be decoded, as problem+json', async () => {
    const response = await fetch(`${server.url}/api/v1.0/users/%ED%A0%80`, {
      headers: { authorization: `Bearer ${tenant.token}` },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
