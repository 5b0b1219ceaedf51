import Bowser from 'bowser';
import type { Database } from '../../db/database';
import { mailUser } from '../../mail/account-mail';
import type { SecurityMailKind } from '../../mail/templates/types';

/** The security notices a user is mailed, in their language. */
export type SecurityEvent = SecurityMailKind;

/**
 * Queues the mail telling a user of a change to how their account signs in, in the caller's
 * transaction (no mail for a change that rolled back). `detail` goes into the text as it is:
 * only what `describeBrowser` makes, never a name someone typed.
 */
export async function notifySecurityEvent(
  tx: Database,
  publicUrl: string,
  input: { userId: string; event: SecurityEvent; detail?: string; acceptLanguage?: string },
): Promise<void> {
  await mailUser(tx, publicUrl, {
    userId: input.userId,
    kind: input.event,
    acceptLanguage: input.acceptLanguage,
    detail: input.detail,
  });
}

/** Browser and operating system, as far as the user agent names them. */
export function browserOf(userAgent: string | undefined): {
  browser: string | null;
  os: string | null;
} {
  if (!userAgent) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent.slice(0, 512));
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name
    ? [parsed.browser.name, major].filter(Boolean).join(' ')
    : null;
  return { browser, os: parsed.os.name ?? null };
}

/** "Chrome 131 on Linux, 203.0.113.7": what a new-browser mail says. Names come from bowser's list. */
export function describeBrowser(
  userAgent: string | undefined,
  ipAddress: string | undefined,
): string {
  const { browser, os } = browserOf(userAgent);
  const what = [browser ?? 'an unknown browser', os].filter(Boolean).join(' on ');
  return ipAddress ? `${what}, ${ipAddress}` : what;
}
