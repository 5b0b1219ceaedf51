import { and, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { ACCOUNT_LINK_PATHS } from '@tc/contract/links';
import type { Database } from '../db/database';
import { actionTokens } from '../db/schema/identity';
import { tenants } from '../db/schema/tenants';
import { badRequest } from '../http/problem';
import { hashToken, newOpaqueToken } from '../identity/sessions';

export type LinkPurpose = 'reset' | 'invite' | 'verify';

/**
 * How long each link works: a reset is asked for and used at once, an invitation may wait for
 * its reader's return, a verification for the next look at the mailbox.
 */
export const LINK_TTL_SECONDS: Record<LinkPurpose, number> = {
  reset: 30 * 60,
  invite: 7 * 24 * 3600,
  verify: 24 * 3600,
};

/** The web screens links open: reset and invitation share Set new password. */
export const LINK_PATHS: Record<LinkPurpose, string> = {
  reset: ACCOUNT_LINK_PATHS.newPassword,
  invite: ACCOUNT_LINK_PATHS.newPassword,
  verify: ACCOUNT_LINK_PATHS.verifyEmail,
};

/**
 * A tenant's own address: its domain with PUBLIC_URL's scheme and port (a console on
 * http://localhost:8080 links demo to http://demo.localhost:8080); the master realm uses
 * PUBLIC_URL itself.
 */
export function tenantBaseUrl(publicUrl: string, domain: string | null): string {
  const url = new URL(publicUrl);
  if (domain) url.hostname = domain;
  return url.toString().replace(/\/+$/, '');
}

export async function linkFor(
  tx: Database,
  publicUrl: string,
  input: { tenantId: string; purpose: LinkPurpose; token: string },
): Promise<string> {
  const [tenant] = await tx
    .select({ domain: tenants.domain, isMaster: tenants.isMaster })
    .from(tenants)
    .where(eq(tenants.id, input.tenantId));
  const base = tenantBaseUrl(publicUrl, tenant?.isMaster ? null : (tenant?.domain ?? null));
  return `${base}${LINK_PATHS[input.purpose]}?token=${encodeURIComponent(input.token)}`;
}

/**
 * Issues a single-use token: 32 random bytes, only its SHA-256 stored.
 *
 * Reset links are asked for by anyone who knows the address (forgot-password, a sign-up with
 * a taken address), so a new one must not retire the link the owner may be about to open:
 * several stay live until they expire or one is used, which retires them all. Invitation and
 * verification links are issued by an administrator or once per sign-up; there only the
 * newest mail's link works.
 */
export async function issueActionToken(
  tx: Database,
  input: { tenantId: string; userId: string; purpose: LinkPurpose },
): Promise<string> {
  const samePurpose = and(
    eq(actionTokens.userId, input.userId),
    eq(actionTokens.purpose, input.purpose),
  );
  await tx
    .delete(actionTokens)
    .where(
      input.purpose === 'reset'
        ? and(
            samePurpose,
            or(isNotNull(actionTokens.usedAt), lte(actionTokens.expiresAt, sql`now()`)),
          )
        : samePurpose,
    );
  const token = newOpaqueToken();
  await tx.insert(actionTokens).values({
    tenantId: input.tenantId,
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: hashToken(token),
    expiresAt: sql`now() + make_interval(secs => ${LINK_TTL_SECONDS[input.purpose]})`,
  });
  return token;
}

/**
 * Marks a token used in one statement, so of two concurrent uses only one succeeds. Unknown,
 * tampered, expired, used, of another tenant or of another purpose: all the same 400.
 */
export async function consumeActionToken(
  tx: Database,
  input: { tenantId: string; token: string; purposes: readonly LinkPurpose[] },
): Promise<{ userId: string; purpose: LinkPurpose }> {
  const [row] = await tx
    .update(actionTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(actionTokens.tokenHash, hashToken(input.token)),
        eq(actionTokens.tenantId, input.tenantId),
        inArray(actionTokens.purpose, [...input.purposes]),
        isNull(actionTokens.usedAt),
        gt(actionTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: actionTokens.userId, purpose: actionTokens.purpose });
  if (!row) throw badRequest('link.invalid', {}, { token: 'link.invalid' });
  return { userId: row.userId, purpose: row.purpose as LinkPurpose };
}

/**
 * Once the mailbox is proven and the account's password settled (a reset, an invitation, a
 * claim through Google), no older link of any kind may act on the account again.
 */
export async function retireLinks(tx: Database, userId: string): Promise<void> {
  await tx.delete(actionTokens).where(eq(actionTokens.userId, userId));
}
