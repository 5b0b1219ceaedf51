import { eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { users } from '../db/schema/identity';
import { tenants } from '../db/schema/tenants';
import { pickLocale } from './locale';
import { enqueueMail } from './outbox';
import type { MailKind } from './templates/types';
import { issueActionToken, LINK_TTL_SECONDS, linkFor, type LinkPurpose } from './links';

export interface UserMail {
  userId: string;
  kind: MailKind;
  /** The single-use link the mail carries, if any (see issueActionToken for older ones). */
  purpose?: LinkPurpose;
  /** The request's Accept-Language, used when the user has saved no preference. */
  acceptLanguage?: string;
  /** A saved locale to fall back on, e.g. the inviting administrator's. */
  fallbackLocale?: string | null;
  /** What a security notice is about (see MailParams.detail). */
  detail?: string;
}

// Letters, marks, spaces, apostrophes and hyphens, and a dot only before a space or the end
// ("J. Doe"): nothing a mail client could turn into a link (www.x, x.example/path, scheme:,
// user@host). Each character is tested once, so the match takes linear time.
const PLAIN_NAME = /^(?:[\p{L}\p{M} '’-]|\.(?= |$))+$/u;

/**
 * The name a mail greets its recipient by. An unverified account was made through the
 * anonymous sign-up form, so its name is anyone's free text sent to someone else's mailbox:
 * such mails greet no one by name. Later (verified, or claimed by the mailbox's owner) the
 * name may still be what that form said, so only a plain name is ever written.
 */
function greetingName(user: { firstName: string; emailVerified: boolean }): string {
  return user.emailVerified && PLAIN_NAME.test(user.firstName) ? user.firstName : '';
}

/**
 * Queues one mail to a user in the caller's transaction: in the user's language, naming the
 * user's tenant, with a fresh link on the tenant's own address when the kind needs one.
 */
export async function mailUser(tx: Database, publicUrl: string, mail: UserMail): Promise<void> {
  const [user] = await tx
    .select({
      tenantId: users.tenantId,
      email: users.email,
      firstName: users.firstName,
      emailVerified: users.emailVerified,
      locale: users.locale,
      tenant: tenants.name,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(eq(users.id, mail.userId));
  if (!user) throw new Error(`mailUser: no user ${mail.userId}`);
  let link: string | undefined;
  if (mail.purpose) {
    const token = await issueActionToken(tx, {
      tenantId: user.tenantId,
      userId: mail.userId,
      purpose: mail.purpose,
    });
    link = await linkFor(tx, publicUrl, { tenantId: user.tenantId, purpose: mail.purpose, token });
  }
  await enqueueMail(tx, {
    tenantId: user.tenantId,
    to: user.email,
    locale: pickLocale(user.locale ?? mail.fallbackLocale, mail.acceptLanguage),
    kind: mail.kind,
    params: { tenant: user.tenant, name: greetingName(user), link, detail: mail.detail },
    linkTtlSeconds: mail.purpose ? LINK_TTL_SECONDS[mail.purpose] : undefined,
  });
}

/** A saved language preference (e.g. of the administrator who sends an invitation). */
export async function savedLocaleOf(tx: Database, userId: string): Promise<string | null> {
  const [row] = await tx.select({ locale: users.locale }).from(users).where(eq(users.id, userId));
  return row?.locale ?? null;
}

/** The invitation mail: a 7-day link to set the first password. */
export async function sendInvitation(
  tx: Database,
  publicUrl: string,
  input: { userId: string; inviterId: string | null; acceptLanguage?: string },
): Promise<void> {
  await mailUser(tx, publicUrl, {
    userId: input.userId,
    kind: 'invite',
    purpose: 'invite',
    acceptLanguage: input.acceptLanguage,
    fallbackLocale: input.inviterId ? await savedLocaleOf(tx, input.inviterId) : null,
  });
}
