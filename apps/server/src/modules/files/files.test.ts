import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { storeImage } from './service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a png'),
]);

describe('GET /api/v1.0/files/:id', () => {
  it('serves a stored file without a token, immutable and cacheable, with its sha256 ETag', async () => {
    const tenant = await createTenant(server.database.db);
    const file = await storeImage(server.database.db, tenant.tenantId, PNG);
    const response = await fetch(`${server.url}${file.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);

    const again = await fetch(`${server.url}${file.url}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('answers 404 problem+json for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await fetch(`${server.url}/api/v1.0/files/${id}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 404, title: 'Not Found' });
    }
  });
});
