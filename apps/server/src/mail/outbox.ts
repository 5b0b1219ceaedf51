import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { mailOutbox } from '../db/schema/mail';
import type { MailLocale } from './locale';
import { renderMail } from './render';
import type { MailKind, MailParams } from './templates/types';

export interface OutgoingMail {
  tenantId: string;
  to: string;
  locale: MailLocale;
  kind: MailKind;
  params: MailParams;
  /** Seconds the single-use link in `params.link` works; its body is blanked after that. */
  linkTtlSeconds?: number;
}

/**
 * Renders and queues a mail in the caller's transaction (transactional outbox): it exists
 * exactly when the change that caused it commits. The caller nudges the worker after the
 * commit (MailService.nudge); otherwise the next poll picks it up.
 */
export async function enqueueMail(tx: Database, mail: OutgoingMail): Promise<void> {
  const rendered = renderMail(mail.kind, mail.locale, mail.params);
  await tx.insert(mailOutbox).values({
    tenantId: mail.tenantId,
    toAddress: mail.to,
    locale: mail.locale,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
    // now() is the transaction's start, as for the link's own expiry issued in it.
    linkExpiresAt:
      mail.linkTtlSeconds === undefined
        ? null
        : sql`now() + make_interval(secs => ${mail.linkTtlSeconds})`,
  });
}
