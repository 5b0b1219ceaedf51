import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { DatabaseHandle } from '../db/database';
import { mailOutbox } from '../db/schema/mail';
import { findMasterRealm } from '../modules/tenants';
import { freePort, openSeededDatabase, type SeededDatabase } from '../test/harness';
import { startSmtpServer } from '../test/smtp';
import { storedError } from './delivery';
import { enqueueMail } from './outbox';
import { createMailService, type MailLog } from './worker';

const MAX_ATTEMPTS = 3;
const config = loadConfig({
  MAIL_POLL_MS: '50',
  MAIL_RETRY_BASE_MS: '50',
  MAIL_RETRY_MAX_MS: '200',
  MAIL_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  SEED_DEMO: 'false',
  LOG_LEVEL: 'silent',
});
const LINK = 'http://localhost:8080/newpassword?token=dead-mail-token';

/** A real SMTP server that refuses every recipient whose address starts with "refused". */
async function startRefusingSmtpServer() {
  const port = await freePort();
  const refusals: string[] = [];
  const accepted: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!address.address.startsWith('refused')) return callback();
      refusals.push(address.address);
      const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
      callback(error);
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        accepted.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    refusals,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let seeded: SeededDatabase;
let database: DatabaseHandle;

beforeAll(async () => {
  seeded = await openSeededDatabase(config);
  database = seeded.database;
});
afterAll(async () => {
  await seeded?.close();
});

async function enqueue(to: string, linkTtlSeconds?: number) {
  const master = await findMasterRealm(database.db);
  await database.db.transaction((tx) =>
    enqueueMail(tx, {
      tenantId: master!.id,
      to,
      locale: 'en',
      kind: 'reset',
      params: { tenant: 'master', name: 'Ada', link: LINK },
      linkTtlSeconds,
    }),
  );
}
const rowOf = async (to: string) =>
  (await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)))[0];

describe('dead mail', () => {
  it('gives a refused message up as dead after MAIL_MAX_ATTEMPTS, keeping its error', async () => {
    const smtp = await startRefusingSmtpServer();
    const logged: { msg: string; obj: object }[] = [];
    const log: MailLog = {
      info: (obj, msg) => logged.push({ obj, msg }),
      warn: (obj, msg) => logged.push({ obj, msg }),
      error: (obj, msg) => logged.push({ obj, msg }),
    };
    const worker = createMailService({ database, config: { ...config, smtpUrl: smtp.url }, log });
    try {
      await worker.start();
      await enqueue('refused@example.test', 3600);
      await expect
        .poll(async () => (await rowOf('refused@example.test'))?.status, { timeout: 30_000 })
        .toBe('dead');
      // A message queued after it is sent: the worker went on, and had its chance to retry
      // the dead one again, which it must not take.
      await enqueue('welcome@example.test', 3600);
      await expect
        .poll(async () => (await rowOf('welcome@example.test'))?.status, { timeout: 30_000 })
        .toBe('sent');
    } finally {
      await worker.stop();
      await smtp.close();
    }
    expect(smtp.refusals).toHaveLength(MAX_ATTEMPTS);
    expect(smtp.accepted).toEqual(['welcome@example.test']);
    const dead = await rowOf('refused@example.test');
    expect(dead).toMatchObject({
      attempts: MAX_ATTEMPTS,
      lastError: expect.stringContaining('Mailbox unavailable'),
      // Nobody will read it: the body and its link token are gone.
      textBody: '',
      htmlBody: '',
      linkExpiresAt: null,
    });
    // A sent message's body is not needed any more either.
    expect(await rowOf('welcome@example.test')).toMatchObject({ textBody: '', htmlBody: '' });
    expect(logged.map((l) => l.msg)).toContain('mail not sent; given up as dead');
    expect(JSON.stringify(logged)).not.toContain('dead-mail-token');
  }, 120_000);

  it('never sends a message whose link expired before it left', async () => {
    const smtp = await startSmtpServer();
    const quiet: MailLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const worker = createMailService({
      database,
      config: { ...config, smtpUrl: smtp.url },
      log: quiet,
    });
    try {
      // Its link lives no time at all: it has expired when the worker claims it.
      await enqueue('too-late@example.test', 0);
      await enqueue('in-time@example.test', 3600);
      await worker.start();
      await smtp.waitFor((m) => m.to.includes('in-time@example.test'), 30_000);
      await expect
        .poll(async () => (await rowOf('too-late@example.test'))?.status, { timeout: 30_000 })
        .toBe('expired');
    } finally {
      await worker.stop();
      await smtp.close();
    }
    expect(smtp.messages.flatMap((m) => m.to)).not.toContain('too-late@example.test');
    expect(await rowOf('too-late@example.test')).toMatchObject({
      textBody: '',
      htmlBody: '',
      lastError: 'link expired before delivery',
    });
  }, 120_000);

  it('keeps no credentials or link tokens in the stored error', () => {
    const error = new Error(
      'Invalid login for smtp://mailer:hunter2@mail.example.test:587 at http://x.test/reset?token=abc',
    );
    const stored = storedError(error);
    expect(stored).not.toContain('hunter2');
    expect(stored).not.toContain('token=abc');
    expect(stored).toContain('smtp://***@mail.example.test:587');
  });
});
