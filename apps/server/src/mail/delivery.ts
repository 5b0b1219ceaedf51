import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { mailOutbox } from '../db/schema/mail';
import { loggableError, redactUrl } from '../http/logging';
import type { MailTransport } from './transport';

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** The log methods the worker uses (Fastify's pino logger fits). */
export interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Exponential back-off: base, 2×base, 4×base, … capped (attempts counts this one). */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * Without SMTP the message stays in the table. The log names its links without their tokens:
 * a link token is a password for its account, and logs are read by more people than the
 * outbox table is.
 */
export async function keepMessage(db: Database, log: MailLog, row: OutboxRow): Promise<void> {
  const links = (row.textBody.match(LINK) ?? []).map(redactUrl);
  log.info(
    { to: row.toAddress, subject: row.subject, links },
    'mail kept in the outbox (no SMTP_URL)',
  );
  await db
    .update(mailOutbox)
    .set({ status: 'kept', lastError: null })
    .where(eq(mailOutbox.id, row.id));
}

/** A message's body gone: it held a link token, or is no longer needed once it left. */
const BLANK_BODY = { textBody: '', htmlBody: '', linkExpiresAt: null } as const;

/**
 * An SMTP error as kept in `last_error`: URLs with their credentials and secret query
 * parameters masked, since the table is read by the super administrator.
 */
export function storedError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(LINK, (url) => redactUrl(url))
    .replace(/(\w{1,32}:\/\/)[^\s/@]+@/g, '$1***@')
    .slice(0, 1000);
}

/** Whether the message's link has stopped working (then it must not be sent). */
export const linkExpired = (row: OutboxRow, now = Date.now()) =>
  row.linkExpiresAt !== null && row.linkExpiresAt.getTime() <= now;

/** A message whose link expired before it left: never sent, its body blanked. */
export async function expireMessage(db: Database, log: MailLog, row: OutboxRow): Promise<void> {
  log.info({ mailId: row.id, attempts: row.attempts }, 'mail not sent: its link expired');
  await db
    .update(mailOutbox)
    .set({ status: 'expired', lastError: 'link expired before delivery', ...BLANK_BODY })
    .where(eq(mailOutbox.id, row.id));
}

/**
 * Sends one claimed message. A failure is recorded and retried later with growing delays;
 * after MAIL_MAX_ATTEMPTS the message is `dead`: no more retries, its last error kept.
 */
export async function deliverMessage(
  deps: { db: Database; config: Config; log: MailLog; smtp: MailTransport },
  row: OutboxRow,
): Promise<void> {
  const { db, config, log, smtp } = deps;
  try {
    await smtp.send({
      from: config.mailFrom,
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
    });
  } catch (error) {
    const lastError = storedError(error);
    if (row.attempts >= config.mail.maxAttempts) {
      log.error(
        { mailId: row.id, attempts: row.attempts, err: loggableError(error) },
        'mail not sent; given up as dead',
      );
      await db
        .update(mailOutbox)
        .set({ status: 'dead', lastError, ...BLANK_BODY })
        .where(eq(mailOutbox.id, row.id));
      return;
    }
    const delay = retryDelayMs(row.attempts, config.mail.retryBaseMs, config.mail.retryMaxMs);
    log.warn(
      { mailId: row.id, attempts: row.attempts, retryInMs: delay, err: loggableError(error) },
      'mail not sent; will retry',
    );
    await db
      .update(mailOutbox)
      .set({
        lastError,
        nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})`,
      })
      .where(eq(mailOutbox.id, row.id));
    return;
  }
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: sql`now()`, lastError: null, ...BLANK_BODY })
    .where(eq(mailOutbox.id, row.id));
}
