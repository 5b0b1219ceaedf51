import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';
import { registerProblemHandlers } from './problem';
import { findWebDist, registerStaticWeb } from './static-web';

const INDEX = '<!doctype html><html><head><title>Console</title></head><body>index</body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

/**
 * A tiny fake build: index.html, a hashed asset with the `.br` and `.gz` copies the web build
 * writes beside it (the server sends those, it does not compress), and a root file.
 */
function fakeDist(): string {
  const root = mkdtempSync(join(tmpdir(), 'tc-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'index-AbC123.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'index-AbC123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(root, 'assets', 'index-AbC123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, '.secret'), 'no');
  return root;
}

async function bareApp(root: string | null): Promise<FastifyInstance> {
  // Headers up to 128 KB reach the handler, as they may behind a proxy that allows them:
  // the console must not rely on Node's 16 KB limit to stay fast.
  const app = Fastify({ logger: false, http: { maxHeaderSize: 128 * 1024 } });
  registerProblemHandlers(app);
  app.get('/api/v1.0/known', async () => ({ data: 'ok' }));
  await registerStaticWeb(app, { root });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

const url = (app: FastifyInstance, path: string) => {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://127.0.0.1:${port}${path}`;
};
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A GET with exactly these headers and the body as sent: fetch decodes bodies, and it adds
 * `cache-control: no-cache` to a conditional request, which asks for a full answer.
 */
function rawGet(target: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    request(target, { headers })
      .on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject)
      .end();
  });
}

describe('static web console', () => {
  let root: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    root = fakeDist();
    app = await bareApp(root);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html at / with no-cache', async () => {
    const response = await fetch(url(app, '/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('etag')).toBeTruthy();
    expect(await response.text()).toBe(INDEX);
  });

  it.each(['/dashboard/users', '/newpassword?token=abc%2Fdef', '/login', '/home'])(
    'falls back to index.html for the client route %s',
    async (path) => {
      const response = await fetch(url(app, path), { headers: html });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(INDEX);
    },
  );

  it('serves hashed assets as immutable, compressed when asked', async () => {
    const plain = await fetch(url(app, '/assets/index-AbC123.js'), {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.status).toBe(200);
    // @fastify/send names JavaScript application/javascript; browsers take either.
    expect(plain.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);

    const gz = await rawGet(url(app, '/assets/index-AbC123.js'), { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    expect(gz.body.length).toBeLessThan(SCRIPT.length / 10);

    const br = await fetch(url(app, '/assets/index-AbC123.js'), {
      headers: { 'accept-encoding': 'br' },
    });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await br.text()).toBe(SCRIPT);
  });

  it('answers a 64 KB Accept-Encoding with the file: the header is parsed, not refused', async () => {
    // How fast is measured in bench/, not here: a timer in a test fails on a busy machine.
    const response = await rawGet(url(app, '/assets/index-AbC123.js'), {
      'accept-encoding': `br${' '.repeat(65_000)}x`,
    });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe(SCRIPT);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await fetch(url(app, '/assets/index-AbC123.js'), {
      method: 'HEAD',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-length')).toBe(String(SCRIPT.length));
    expect(await response.text()).toBe('');
    const page = await fetch(url(app, '/dashboard/users'), { method: 'HEAD', headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(url(app, '/'));
    const etag = first.headers.get('etag')!;
    const again = await rawGet(url(app, '/'), { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('serves root files with revalidation', async () => {
    const response = await fetch(url(app, '/favicon.svg'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    const response = await fetch(url(app, '/assets/gone-123.js'), { headers: html });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('never serves hidden files or paths outside the build', async () => {
    for (const path of [
      '/.secret',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2fetc%2fpasswd',
    ]) {
      const response = await fetch(url(app, path));
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('root:');
    }
  });

  it('keeps problem+json 404s for unknown server paths, even for browsers', async () => {
    for (const path of ['/api/v1.0/nothing', '/api', '/realms/x/nothing', '/healthz/x']) {
      const response = await fetch(url(app, path), { headers: html });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await response.json()).detail).toContain('There is no GET');
    }
    const known = await fetch(url(app, '/api/v1.0/known'));
    expect(await known.json()).toEqual({ data: 'ok' });
  });

  it('answers 404 problem to a non-page request of an unknown path', async () => {
    const response = await fetch(url(app, '/some/route'), {
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('static web console, not built', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await bareApp(null);
  });
  afterAll(() => app?.close());

  it('still starts and says so at /', async () => {
    const response = await fetch(url(app, '/'));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await response.json()).detail).toMatch(/console is not built/);
  });

  it('keeps API 404s unchanged', async () => {
    const response = await fetch(url(app, '/api/v1.0/nothing'), { headers: html });
    expect((await response.json()).detail).toBe('There is no GET /api/v1.0/nothing.');
  });
});

describe('static web console in the whole server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('finds the build the way the migrations are found', () => {
    const found = findWebDist();
    if (found) expect(found).toMatch(/apps[/\\]web[/\\]dist$/);
  });

  it('answers a client route with the page (or says it is not built), under the CSP', async () => {
    const response = await fetch(`${server.url}/dashboard/users`, { headers: html });
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    if (findWebDist()) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    } else {
      expect(response.status).toBe(404);
      expect((await response.json()).detail).toMatch(/not built/);
    }
  });

  it('leaves the API, health and realm routes alone', async () => {
    const health = await fetch(`${server.url}/healthz`, { headers: html });
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const unknown = await fetch(`${server.url}/api/v1.0/nothing`, { headers: html });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const wellKnown = await fetch(`${server.url}/realms/master/.well-known/openid-configuration`);
    expect(wellKnown.status).toBe(200);
  });
});
