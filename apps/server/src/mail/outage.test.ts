import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/mail';
import { api, createTenant, signIn, uniqueName, type TenantFixture } from '../test/fixtures';
import { freePort, startTestServer, TEST_PASSWORD, type TestServer } from '../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp';

const MAX_ATTEMPTS = 40;
const QUEUED_DURING_OUTAGE = 6;

let port: number;
let server: TestServer;
let tenant: TenantFixture;
let token: string;
const smtpServers: TestSmtpServer[] = [];

beforeAll(async () => {
  port = await freePort();
  smtpServers.push(await startSmtpServer(port));
  server = await startTestServer({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_POLL_MS: '100',
    MAIL_RETRY_BASE_MS: '200',
    MAIL_RETRY_MAX_MS: '1000',
    MAIL_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  });
  tenant = await createTenant(server.database.db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD)).access_token;
});
afterAll(async () => {
  await server?.close();
  await Promise.all(smtpServers.map((s) => s.close()));
});

/** Creates a user through the API: its invitation is queued in the same transaction. */
async function invite(): Promise<string> {
  const email = `${uniqueName('outage')}@example.test`;
  const response = await api(server, '/users/create', token, {
    method: 'POST',
    body: JSON.stringify({
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      roleId: tenant.memberRoleId,
    }),
  });
  expect(response.status).toBe(201);
  return email;
}

const rowsOf = (emails: string[]) =>
  server.database.db.select().from(mailOutbox).where(inArray(mailOutbox.toAddress, emails));
const receivedBy = (email: string) =>
  smtpServers.flatMap((s) => s.messages).filter((m) => m.to.includes(email));

describe('an SMTP outage', () => {
  it('delays the invitations queued during it and loses none', async () => {
    // Before: the server delivers.
    const before = await invite();
    await smtpServers[0]!.waitFor((m) => m.to.includes(before), 30_000);

    await smtpServers[0]!.close();
    const outageStart = Date.now();
    const emails: string[] = [];
    for (let i = 0; i < QUEUED_DURING_OUTAGE; i++) emails.push(await invite());
    // Every one of them has been refused at least three times: the outage was felt.
    await expect
      .poll(
        async () => {
          const rows = await rowsOf(emails);
          return rows.length === emails.length && rows.every((r) => r.attempts >= 3);
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(true);
    expect((await rowsOf(emails)).every((r) => r.status === 'pending' && r.lastError)).toBe(true);

    // The same address comes back.
    const restarted = await startSmtpServer(port);
    smtpServers.push(restarted);
    const outageMs = Date.now() - outageStart;
    for (const email of emails) {
      const mail = await restarted.waitFor((m) => m.to.includes(email), 60_000);
      expect(mail.subject).not.toBe('');
      expect(mail.text).toContain('token=');
    }
    const deliveredMs = Date.now() - outageStart - outageMs;
    await expect
      .poll(async () => (await rowsOf(emails)).map((r) => r.status), { timeout: 30_000 })
      .toEqual(emails.map(() => 'sent'));

    const rows = await rowsOf(emails);
    const received = emails.map((email) => receivedBy(email).length);
    // Delivery is at least once: every message arrived; a duplicate would be counted here.
    expect(received.every((n) => n >= 1)).toBe(true);
    expect(rows.every((r) => r.attempts < MAX_ATTEMPTS)).toBe(true);
    console.info(
      `SMTP outage: ${QUEUED_DURING_OUTAGE} invitations, outage ${outageMs} ms, all delivered ` +
        `${deliveredMs} ms after SMTP returned; attempts ${rows.map((r) => r.attempts).join(',')}; ` +
        `duplicates ${received.reduce((a, n) => a + n - 1, 0)}; dead 0`,
    );
  }, 180_000);
});
