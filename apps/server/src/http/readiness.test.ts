import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createSignedInTenant } from '../test/fixtures';
import { adminPostgresUrl, engine, startTestServer, type TestServer } from '../test/harness';
import { READY_TIMEOUT_MS } from './health';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.app.close());

async function readiness(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/readyz`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe.runIf(engine === 'postgres')('readiness through a database outage', () => {
  it('answers 503 promptly while the database refuses, and 200 again by itself', async () => {
    const name = new URL(server.databaseUrl!).pathname.slice(1);
    const tenant = await createSignedInTenant(server);
    const usersPage = () => callApi(server, tenant.token, 'POST', '/users/page', { pageSize: 5 });
    const admin = new pg.Client({ connectionString: adminPostgresUrl });
    await admin.connect();
    try {
      expect((await readiness()).status).toBe(200);
      // An outage as the server sees it: its sessions end and new ones are refused.
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`,
        [name],
      );
      const down = await readiness();
      expect(down.status).toBe(503);
      // Bounded by the readiness timeout, with room for a busy machine.
      expect(down.ms).toBeLessThan(READY_TIMEOUT_MS + 2000);
      // Requests that need the database say the same: 503 (retry), not 500 (a failed request).
      const refused = await usersPage();
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 'service.database_unreachable' });
      await admin.query(`alter database ${name} allow_connections true`);
    } finally {
      await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
      await admin.end();
    }
    expect((await readiness()).status).toBe(200);
    expect((await usersPage()).status).toBe(200);
  }, 60_000);
});

describe('readiness', () => {
  it('answers 503 problem+json once the database is gone, while /healthz still answers', async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await server.database.close();
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
