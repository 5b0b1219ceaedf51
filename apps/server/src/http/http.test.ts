import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
let tenant: TenantFixture;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
});
afterAll(() => server?.close());

/** node:http, because fetch does not let a test choose the Host header. */
function getWithHost(path: string, host: string, headers: Record<string, string> = {}) {
  const { port } = new URL(server.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { host, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('tenant identification', () => {
  it('finds a tenant by its domain, ignoring case and port', async () => {
    const response = await getWithHost(
      '/api/v1.0/tenants/identify',
      `${tenant.domain.toUpperCase()}:8080`,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).data).toMatchObject({
      id: tenant.tenantId,
      name: tenant.name,
      domain: tenant.domain,
    });
    // This server runs without Google sign-in, so the console gets no client id.
    expect(JSON.parse(response.body).data).toMatchObject({
      googleEnabled: false,
      googleClientId: null,
    });
  });

  it('prefers the Tenant-ID header over the host', async () => {
    const response = await getWithHost('/api/v1.0/tenants/identify', 'localhost', {
      'tenant-id': tenant.tenantId,
    });
    expect(JSON.parse(response.body).data.name).toBe(tenant.name);
  });

  it('answers the master realm on the public host and on localhost', async () => {
    for (const host of [new URL(server.url).host, 'localhost:1234']) {
      const response = await getWithHost('/api/v1.0/tenants/identify', host);
      expect(JSON.parse(response.body).data.name).toBe('master');
    }
  });

  it('answers 404 problem+json for an unknown host or Tenant-ID', async () => {
    for (const [host, headers] of [
      ['unknown.example.test', {}],
      ['localhost', { 'tenant-id': '00000000-0000-4000-8000-000000000000' }],
      ['localhost', { 'tenant-id': 'not-a-uuid' }],
    ] as const) {
      const response = await getWithHost('/api/v1.0/tenants/identify', host, headers);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ status: 404, title: 'Not Found' });
    }
  });
});

// The token endpoint answers these in the OAuth shape instead (test/fuzz/bad-input.test.ts).
describe('errors are problem+json, never a stack trace', () => {
  const post = (path: string, body: string, contentType: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });

  it('malformed JSON → 400', async () => {
    const response = await post('/api/v1.0/auth/forgot-password', '{"a":', 'application/json');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const body = await response.text();
    expect(body).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('wrong content type → 415', async () => {
    const response = await post('/api/v1.0/auth/forgot-password', 'x', 'text/csv');
    expect(response.status).toBe(415);
    expect((await response.json()).title).toBe('Unsupported Media Type');
  });

  it('oversized body → 413', async () => {
    const response = await post(
      '/api/v1.0/auth/forgot-password',
      JSON.stringify({ password: 'x'.repeat(2 * 1024 * 1024) }),
      'application/json',
    );
    expect(response.status).toBe(413);
  });

  it('unknown route → 404', async () => {
    const response = await fetch(`${server.url}/api/v1.0/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('validation failure → 400 with field messages', async () => {
    const response = await post(
      '/api/v1.0/auth/forgot-password',
      JSON.stringify({ email: 5 }),
      'application/json',
    );
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors).toHaveProperty('email');
  });
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff, frame-ancestors none and a referrer policy', async () => {
    const response = await fetch(`${server.url}/api/v1.0/tenants/identify`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('docs and health', () => {
  it('publishes the OpenAPI document and a browsable page', async () => {
    const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths).toHaveProperty('/api/v1.0/tenants/identify');
    expect(document.paths).toHaveProperty('/api/v1.0/auth/me');
    const page = await fetch(`${server.url}/api/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({
      status: 'ok',
      instance: server.config.instanceId,
    });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
  });
});
