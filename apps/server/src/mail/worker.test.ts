import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { DatabaseHandle } from '../db/database';
import { mailOutbox } from '../db/schema/mail';
import { createTenant } from '../test/fixtures';
import {
  freePort,
  openSeededDatabase,
  startTestServer,
  type SeededDatabase,
  type TestServer,
} from '../test/harness';
import { startSmtpServer } from '../test/smtp';
import { followLink, linkIn, NEW_PASSWORD, postJson, tenantHost } from '../test/helpers/account';
import { findMasterRealm } from '../modules/tenants';
import { enqueueMail } from './outbox';
import { createMailService, retryDelayMs, type MailLog } from './worker';

const outboxOf = (server: TestServer, to: string) =>
  server.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));

describe('mail worker through the server', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('keeps a message while SMTP is down and sends it after it comes back', async () => {
    const port = await freePort();
    server = await startTestServer({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_POLL_MS: '100',
      MAIL_RETRY_BASE_MS: '300',
      MAIL_RETRY_MAX_MS: '1000',
    });
    const tenant = await createTenant(server.database.db);
    const host = tenantHost(server, tenant.domain);
    expect(
      (await postJson(server, '/auth/forgot-password', { email: tenant.adminEmail }, { host }))
        .status,
    ).toBe(202);
    await expect
      .poll(async () => (await outboxOf(server!, tenant.adminEmail))[0], { timeout: 10_000 })
      .toMatchObject({ status: 'pending', lastError: expect.any(String) });
    await expect
      .poll(async () => (await outboxOf(server!, tenant.adminEmail))[0]?.attempts, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(2);

    const smtp = await startSmtpServer(port);
    try {
      const mail = await smtp.waitFor((m) => m.to.includes(tenant.adminEmail), 15_000);
      expect(mail.subject).toContain('Reset your');
      await expect
        .poll(async () => (await outboxOf(server!, tenant.adminEmail))[0]?.status)
        .toBe('sent');
    } finally {
      await smtp.close();
    }
    // Its waits add up to 35 s on a loaded machine: the budget covers them all.
  }, 90_000);
});

describe('outbox mode (no SMTP_URL)', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('keeps every message in the table, readable, and the link there finishes the flow', async () => {
    server = await startTestServer({ MAIL_POLL_MS: '100' });
    const tenant = await createTenant(server.database.db);
    const host = tenantHost(server, tenant.domain);
    await postJson(server, '/auth/forgot-password', { email: tenant.adminEmail }, { host });
    await expect
      .poll(async () => (await outboxOf(server!, tenant.adminEmail))[0]?.status)
      .toBe('kept');
    const [row] = await outboxOf(server, tenant.adminEmail);
    expect(row!.htmlBody).toContain('<html lang="en">');
    const done = await followLink(server, linkIn(row!.textBody), '/auth/reset-password', {
      password: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
  });
});

describe('mail worker alone', () => {
  let seeded: SeededDatabase;
  let database: DatabaseHandle;
  const config = loadConfig({ MAIL_POLL_MS: '50', SEED_DEMO: 'false', LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    seeded = await openSeededDatabase(config, 5);
    database = seeded.database;
  });
  afterAll(async () => {
    await seeded?.close();
  });

  async function enqueue(to: string) {
    const master = await findMasterRealm(database.db);
    await database.db.transaction((tx) =>
      enqueueMail(tx, {
        tenantId: master!.id,
        to,
        locale: 'it',
        kind: 'reset',
        params: {
          tenant: '<b>master</b>',
          name: 'Ada',
          link: 'http://localhost:8080/newpassword?token=abc',
        },
      }),
    );
  }

  it('logs the links of a kept message without their tokens, and escapes names in HTML', async () => {
    const logged: object[] = [];
    const log: MailLog = {
      info: (obj) => logged.push(obj),
      warn: () => undefined,
      error: () => undefined,
    };
    const worker = createMailService({ database, config, log });
    await worker.start();
    await enqueue('kept@example.test');
    await expect.poll(() => logged.length).toBeGreaterThan(0);
    await worker.stop();
    expect(logged[0]).toMatchObject({
      to: 'kept@example.test',
      links: ['http://localhost:8080/newpassword?token=***'],
    });
    expect(JSON.stringify(logged)).not.toContain('token=abc');
    const [row] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'kept@example.test'));
    expect(row).toMatchObject({
      status: 'kept',
      locale: 'it',
      subject: 'Reimposta la password di <b>master</b>',
    });
    expect(row!.htmlBody).toContain('&lt;b&gt;master&lt;/b&gt;');
    expect(row!.htmlBody).not.toContain('<b>master</b>');
  });

  it('never sends one message twice with two workers polling the same database', async () => {
    const smtp = await startSmtpServer();
    const smtpConfig = { ...config, smtpUrl: smtp.url };
    const quiet: MailLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const workers = [1, 2].map(() =>
      createMailService({ database, config: smtpConfig, log: quiet }),
    );
    try {
      for (let i = 0; i < 12; i++) await enqueue(`many${i}@example.test`);
      await Promise.all(workers.map((w) => w.start()));
      await expect.poll(() => smtp.messages.length, { timeout: 15_000 }).toBe(12);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.messages).toHaveLength(12);
      const sent = await database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'sent')));
      expect(sent.filter((r) => r.toAddress.startsWith('many'))).toHaveLength(12);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await smtp.close();
    }
  });

  it('backs off exponentially, capped', () => {
    expect([1, 2, 3, 4, 10].map((n) => retryDelayMs(n, 5000, 600_000))).toEqual([
      5000, 10_000, 20_000, 40_000, 600_000,
    ]);
  });
});
