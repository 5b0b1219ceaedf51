import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.app.close());

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
