import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, uniqueName, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { postJson, tenantHost } from '../../test/helpers/account';

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
});
afterAll(() => server?.close());

const forgot = (email: string) =>
  postJson(server, '/auth/forgot-password', { email }, { host: tenantHost(server, tenant.domain) });

describe('forgot-password rate limits', () => {
  it('allows 3 requests per address and e-mail, then 429 with Retry-After, known or not', async () => {
    for (const email of [tenant.adminEmail, `${uniqueName('ghost')}@example.test`]) {
      for (let i = 0; i < 3; i++) expect((await forgot(email)).status).toBe(202);
      const limited = await forgot(email.toUpperCase());
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toContain('application/problem+json');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    }
  });

  it('limits one client address to 10 requests a minute across e-mails', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await forgot(`${uniqueName('x')}@example.test`)).status);
    // The previous test sent 8 requests from this address: 2 more are allowed, then 429.
    expect(statuses).toEqual([202, 202, 429, 429]);
    const limited = await forgot(`${uniqueName('y')}@example.test`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
