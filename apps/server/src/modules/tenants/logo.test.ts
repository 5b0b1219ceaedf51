import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/tenants';
import { api } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { createTenantViaApi, sendJson, superAdminToken } from '../../test/helpers/tenants';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await superAdminToken(server);
});
afterAll(() => server?.close());

/** Tiny images: just the signature each format starts with, and a few bytes after it. */
const tail = Buffer.from('tiny image body');
const IMAGES: Record<string, Buffer> = {
  'image/png': Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from([0, 0, 0, 13]),
    Buffer.from('IHDR'),
    tail,
  ]),
  'image/jpeg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), tail]),
  'image/webp': Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([0x1a, 0, 0, 0]),
    Buffer.from('WEBPVP8 '),
    tail,
  ]),
  'image/gif': Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0]), tail]),
};

function upload(id: string, body: Buffer, contentType: string, bearer: string | undefined = token) {
  return api(server, `/tenants/${id}/logo`, bearer, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: new Uint8Array(body),
  });
}

describe('tenant logo', () => {
  it.each(Object.entries(IMAGES))(
    'stores a %s, whatever type was declared, and serves it with cache headers',
    async (type, bytes) => {
      const tenant = await createTenantViaApi(server, token);
      // The declared type is not trusted: the bytes decide.
      const response = await upload(tenant.id, bytes, 'application/octet-stream');
      expect(response.status).toBe(200);
      const row = (await response.json()).data;
      expect(row).toMatchObject({ id: tenant.id, name: tenant.name });
      expect(row.logoUrl).toMatch(/^\/api\/v1\.0\/files\/[0-9a-f-]{36}$/);

      const served = await fetch(`${server.url}${row.logoUrl}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    },
  );

  it('replaces the previous file, deletes it, and shows in identify and the row', async () => {
    const tenant = await createTenantViaApi(server, token);
    const first = (await (await upload(tenant.id, IMAGES['image/png']!, 'image/png')).json()).data;
    const second = (await (await upload(tenant.id, IMAGES['image/gif']!, 'image/png')).json()).data;
    expect(second.logoUrl).not.toBe(first.logoUrl);
    expect((await fetch(`${server.url}${first.logoUrl}`)).status).toBe(404);
    const served = await fetch(`${server.url}${second.logoUrl}`);
    expect(served.headers.get('content-type')).toBe('image/gif');

    const identify = await api(server, '/tenants/identify', undefined, {
      headers: { 'tenant-id': tenant.id },
    });
    expect((await identify.json()).data).toMatchObject({
      name: tenant.name,
      logoUrl: second.logoUrl,
    });
    const read = await sendJson(server, token, 'GET', `/tenants/${tenant.id}`);
    expect((await read.json()).data.logoUrl).toBe(second.logoUrl);
    const stored = await server.database.db
      .select()
      .from(files)
      .where(eq(files.tenantId, tenant.id));
    expect(stored).toHaveLength(1);
  });

  it('DELETE removes the logo and its file', async () => {
    const tenant = await createTenantViaApi(server, token);
    const row = (await (await upload(tenant.id, IMAGES['image/jpeg']!, 'image/jpeg')).json()).data;
    const removed = await sendJson(server, token, 'DELETE', `/tenants/${tenant.id}/logo`);
    expect(removed.status).toBe(200);
    expect((await removed.json()).data.logoUrl).toBeNull();
    expect((await fetch(`${server.url}${row.logoUrl}`)).status).toBe(404);
    const identify = await api(server, '/tenants/identify', undefined, {
      headers: { 'tenant-id': tenant.id },
    });
    expect((await identify.json()).data.logoUrl).toBeNull();
  });

  it('refuses SVG, text and unknown bytes with 415, and keeps the current logo', async () => {
    const tenant = await createTenantViaApi(server, token);
    const row = (await (await upload(tenant.id, IMAGES['image/png']!, 'image/png')).json()).data;
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>');
    const attempts: Array<[Buffer, string]> = [
      [svg, 'image/svg+xml'],
      [svg, 'image/png'],
      [Buffer.from('just some text'), 'text/plain'],
      [Buffer.from('just some text'), 'image/jpeg'],
      [Buffer.from('{"a":1}'), 'application/json'],
      [Buffer.alloc(0), 'image/png'],
    ];
    for (const [body, type] of attempts) {
      const response = await upload(tenant.id, body, type);
      expect(response.status, type).toBe(415);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    const read = await sendJson(server, token, 'GET', `/tenants/${tenant.id}`);
    expect((await read.json()).data.logoUrl).toBe(row.logoUrl);
  });

  it('refuses an image over 2 MB with 413 problem+json', async () => {
    const tenant = await createTenantViaApi(server, token);
    const big = Buffer.concat([IMAGES['image/png']!, Buffer.alloc(2 * 1024 * 1024)]);
    const response = await upload(tenant.id, big, 'image/png');
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await response.json()).status).toBe(413);
    // Just under the limit is fine, although it is above the JSON body limit of 1 MB.
    const fits = Buffer.concat([IMAGES['image/png']!, Buffer.alloc(2 * 1024 * 1024 - 100)]);
    expect((await upload(tenant.id, fits, 'image/png')).status).toBe(200);
  });

  it('answers 404 for an unknown tenant and 400 for a malformed id', async () => {
    const unknown = await upload(
      '00000000-0000-4000-8000-000000000000',
      IMAGES['image/png']!,
      'image/png',
    );
    expect(unknown.status).toBe(404);
    expect((await upload('nope', IMAGES['image/png']!, 'image/png')).status).toBe(400);
  });
});
