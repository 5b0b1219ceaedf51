import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailQueueEntry } from '@tc/contract/mail-queue';
import type { Page } from '@tc/contract/paging';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import {
  freePort,
  startTestServer,
  SUPER_ADMIN_PASSWORD,
  TEST_PASSWORD,
  type TestServer,
} from '../../test/harness';
import { postJson, tenantHost } from '../../test/helpers/account';

let server: TestServer;
let tenant: TenantFixture;
let superToken: string;
let adminToken: string;

beforeAll(async () => {
  // Nothing listens on this port: every delivery is refused, and after two a message is dead.
  const closedPort = await freePort();
  server = await startTestServer({
    SMTP_URL: `smtp://127.0.0.1:${closedPort}`,
    MAIL_POLL_MS: '100',
    MAIL_RETRY_BASE_MS: '100',
    MAIL_RETRY_MAX_MS: '200',
    MAIL_MAX_ATTEMPTS: '2',
  });
  tenant = await createTenant(server.database.db);
  superToken = (
    await signIn(server, 'master', server.config.bootstrapAdminEmail, SUPER_ADMIN_PASSWORD)
  ).access_token;
  adminToken = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD)).access_token;
});
afterAll(() => server?.close());

const page = (token: string, body: object = {}) =>
  api(server, '/mail-queue/page', token, { method: 'POST', body: JSON.stringify(body) });

describe('the mail queue', () => {
  it('is refused to a tenant administrator', async () => {
    expect((await page(adminToken)).status).toBe(403);
  });

  it('shows the super administrator a dead message, without its body', async () => {
    const host = tenantHost(server, tenant.domain);
    const asked = await postJson(
      server,
      '/auth/forgot-password',
      { email: tenant.adminEmail },
      { host },
    );
    expect(asked.status).toBe(202);

    let dead: MailQueueEntry | undefined;
    await expect
      .poll(
        async () => {
          const response = await page(superToken, { filter: { status: 'dead' } });
          expect(response.status).toBe(200);
          const body = (await response.json()) as { data: Page<MailQueueEntry> };
          dead = body.data.data.find((m) => m.toAddress === tenant.adminEmail);
          return dead?.status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe('dead');
    expect(dead).toMatchObject({
      tenantId: tenant.tenantId,
      tenantName: tenant.name,
      attempts: 2,
      lastError: expect.stringContaining('ECONNREFUSED'),
    });
    expect(dead!.subject).toContain('Reset your');
    expect(Object.keys(dead!)).not.toContain('textBody');
    expect(JSON.stringify(dead)).not.toContain('token=');

    // Unfiltered, it is listed too; filtered to another state, it is not.
    const all = (await (await page(superToken)).json()) as { data: Page<MailQueueEntry> };
    expect(all.data.data.map((m) => m.id)).toContain(dead!.id);
    const expired = (await (await page(superToken, { filter: { status: 'expired' } })).json()) as {
      data: Page<MailQueueEntry>;
    };
    expect(expired.data.data.map((m) => m.id)).not.toContain(dead!.id);
  }, 120_000);
});
