import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import type { Caller } from '../../identity/token-service';
import { tenantService } from './service';
import { createTenantViaApi, sendJson, superAdminToken } from '../../test/helpers/tenants';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await superAdminToken(server);
});
afterAll(() => server?.close());

const page = (body: unknown) => sendJson(server, token, 'POST', '/tenants/page', body);

describe('tenants CRUD (super administrator)', () => {
  it('creates, reads, lists, updates and deletes a tenant', async () => {
    const name = uniqueName();
    const created = await sendJson(server, token, 'POST', '/tenants/create', {
      id: null,
      name,
      domain: `${name.toUpperCase()}.Example.Test`,
    });
    expect(created.status).toBe(201);
    const row = (await created.json()).data;
    expect(row).toMatchObject({
      name,
      domain: `${name}.example.test`,
      logoUrl: null,
      allowSignup: false,
    });
    expect(new Date(row.createdAt).getTime()).toBeGreaterThan(0);

    const read = await sendJson(server, token, 'GET', `/tenants/${row.id}`);
    expect((await read.json()).data).toEqual(row);

    const listed = await page({ filter: { search: name } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()).data;
    expect(body).toMatchObject({ pageIndex: 1, pageSize: 10, totalCount: 1 });
    expect(body.data).toEqual([row]);

    const renamed = `${name}-x`;
    const updated = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: row.id,
      name: renamed,
      domain: `${renamed}.example.test`,
      allowSignup: true,
    });
    expect(updated.status).toBe(200);
    expect((await updated.json()).data).toMatchObject({
      id: row.id,
      name: renamed,
      domain: `${renamed}.example.test`,
      allowSignup: true,
    });
    // A missing allowSignup keeps the current value.
    const again = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: row.id,
      name: renamed,
      domain: `${renamed}.example.test`,
    });
    expect((await again.json()).data.allowSignup).toBe(true);

    const deleted = await sendJson(server, token, 'DELETE', `/tenants/delete/${row.id}`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ data: { id: row.id } });
    expect((await sendJson(server, token, 'GET', `/tenants/${row.id}`)).status).toBe(404);
    expect((await sendJson(server, token, 'DELETE', `/tenants/delete/${row.id}`)).status).toBe(404);
  });

  it('pages, sorts by name, domain and createdAt, and searches name or domain', async () => {
    const tag = uniqueName('s');
    for (const [name, domain] of [
      [`${tag}b`, `a-${tag}.example.test`],
      [`${tag}a`, `c-${tag}.example.test`],
      [`zz${uniqueName()}`, `b-${tag}.example.test`],
    ]) {
      expect(
        (await sendJson(server, token, 'POST', '/tenants/create', { name, domain })).status,
      ).toBe(201);
    }
    const names = async (body: unknown) =>
      ((await (await page(body)).json()).data.data as { name: string }[]).map((t) => t.name);
    const byName = await names({ filter: { search: tag } });
    expect(byName).toHaveLength(3);
    expect(byName.slice(0, 2)).toEqual([`${tag}a`, `${tag}b`]);
    const byDomain = await page({
      filter: { search: tag },
      listSort: { field: 'domain', direction: 1 },
    });
    const domains = (await byDomain.json()).data.data.map((t: { domain: string }) => t.domain);
    expect(domains).toEqual([
      `c-${tag}.example.test`,
      `b-${tag}.example.test`,
      `a-${tag}.example.test`,
    ]);
    expect(await names({ filter: { search: tag }, listSort: { field: 'createdAt' } })).toEqual([
      `${tag}b`,
      `${tag}a`,
      expect.stringMatching(/^zz/),
    ]);
    const second = await (
      await page({ filter: { search: tag }, pageSize: 2, pageIndex: 2 })
    ).json();
    expect(second.data).toMatchObject({ totalCount: 3, pageIndex: 2, pageSize: 2 });
    expect(second.data.data).toHaveLength(1);
    expect((await page({ listSort: { field: 'enabled' } })).status).toBe(400);
  });
});

describe('validation', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['missing name', { domain: 'a1.example.test' }, 'name', /Enter a name/],
    ['empty name', { name: ' ', domain: 'a2.example.test' }, 'name', /Enter a name/],
    ['one-letter name', { name: 'a', domain: 'a3.example.test' }, 'name', /2 to 63/],
    ['name with a space', { name: 'a b', domain: 'a4.example.test' }, 'name', /letters, digits/],
    ['name with a slash', { name: 'a/b', domain: 'a5.example.test' }, 'name', /letters, digits/],
    ['name starting with -', { name: '-ab', domain: 'a6.example.test' }, 'name', /starting/],
    ['64-char name', { name: 'a'.repeat(64), domain: 'a7.example.test' }, 'name', /63/],
    ['reserved name', { name: 'Master', domain: 'a8.example.test' }, 'name', /reserved/],
    ['missing domain', { name: 'okname' }, 'domain', /Enter a domain/],
    ['domain without a dot', { name: 'okname', domain: 'intranet' }, 'domain', /host name/],
    ['localhost', { name: 'okname', domain: 'localhost' }, 'domain', /host name/],
    ['domain with a space', { name: 'okname', domain: 'a b.test' }, 'domain', /host name/],
    ['domain with _', { name: 'okname', domain: 'a_b.example.test' }, 'domain', /host name/],
    ['label ending in -', { name: 'okname', domain: 'ab-.example.test' }, 'domain', /host name/],
    ['IPv4 address', { name: 'okname', domain: '10.0.0.1' }, 'domain', /host name/],
    ['URL', { name: 'okname', domain: 'https://a.example.test' }, 'domain', /host name/],
    [
      'domain over 253 chars',
      { name: 'okname', domain: `${'a'.repeat(60)}.`.repeat(4) + 'example.test' },
      'domain',
      /253/,
    ],
    [
      'bad admin e-mail',
      { name: 'okname', domain: 'ok.example.test', adminEmail: 'nope' },
      'adminEmail',
      /valid e-mail/,
    ],
  ];
  it.each(cases)('refuses %s with a field message', async (_label, body, field, message) => {
    const response = await sendJson(server, token, 'POST', '/tenants/create', body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await response.json()).errors[field]).toMatch(message);
  });

  it('accepts x.localhost and refuses the console’s own host', async () => {
    const name = uniqueName();
    const ok = await sendJson(server, token, 'POST', '/tenants/create', {
      name,
      domain: `${name}.localhost`,
    });
    expect(ok.status).toBe(201);
    // Only the actor id of the caller is used by create.
    const caller = { userId: randomUUID() } as Caller;
    const config = { ...server.config, publicUrl: 'https://console.example.test' };
    await expect(
      tenantService.create({
        db: server.database.db,
        config,
        caller,
        data: { name: uniqueName(), domain: 'console.example.test' },
      }),
    ).rejects.toMatchObject({ status: 400, fields: { domain: 'tenant.domain_is_console' } });
  });

  it('checks update bodies the same way, and needs an id', async () => {
    const tenant = await createTenantViaApi(server, token);
    const bad = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: tenant.id,
      name: 'master',
      domain: 'nodot',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toMatchObject({
      name: expect.stringMatching(/reserved/),
      domain: expect.stringMatching(/host name/),
    });
    const noId = await sendJson(server, token, 'PUT', '/tenants/update', {
      name: tenant.name,
      domain: tenant.domain,
    });
    expect(noId.status).toBe(400);
    expect((await noId.json()).errors.id).toBeDefined();
    const unknown = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: '00000000-0000-4000-8000-000000000000',
      name: uniqueName(),
      domain: `${uniqueName()}.example.test`,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('duplicates', () => {
  it('answers 409 with field errors for a name or domain taken in any case', async () => {
    const first = await createTenantViaApi(server, token);
    const sameName = await sendJson(server, token, 'POST', '/tenants/create', {
      name: first.name.toUpperCase(),
      domain: `${uniqueName()}.example.test`,
    });
    expect(sameName.status).toBe(409);
    expect((await sameName.json()).errors).toEqual({ name: expect.stringMatching(/name/) });
    const sameDomain = await sendJson(server, token, 'POST', '/tenants/create', {
      name: uniqueName(),
      domain: first.domain.toUpperCase(),
    });
    expect(sameDomain.status).toBe(409);
    expect((await sameDomain.json()).errors).toEqual({ domain: expect.stringMatching(/domain/) });
    const both = await sendJson(server, token, 'POST', '/tenants/create', {
      name: first.name,
      domain: first.domain,
    });
    expect(Object.keys((await both.json()).errors).sort()).toEqual(['domain', 'name']);

    const second = await createTenantViaApi(server, token);
    const rename = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: second.id,
      name: first.name.toUpperCase(),
      domain: second.domain,
    });
    expect(rename.status).toBe(409);
    expect((await rename.json()).errors.name).toBeDefined();
    // Keeping one's own name and domain is no clash.
    const same = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: second.id,
      name: second.name.toUpperCase(),
      domain: second.domain,
    });
    expect(same.status).toBe(200);
  });

  it('answers 409, not 500, when concurrent creates race past the pre-check', async () => {
    const name = uniqueName();
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        sendJson(server, token, 'POST', '/tenants/create', {
          name: n === 1 ? name : name.toUpperCase(),
          domain: `${name}${n}.example.test`,
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
  });
});
