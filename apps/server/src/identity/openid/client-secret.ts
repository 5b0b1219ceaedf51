import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { BruteForceSettings } from '../../config';
import type { Database } from '../../db/database';
import { loginFailures } from '../../db/schema/identity';
import { attemptKey, clearLoginFailures, isLocked, takeLoginAttempt } from '../brute-force';
import { hashToken } from '../sessions';

export interface ClientLockout {
  db: Database;
  settings: BruteForceSettings;
}

/**
 * A client secret is 32 random bytes: a guess is hopeless, so one SHA-256 digest stores it
 * safely — a slow password hash would only make every client-credentials grant slow.
 */
export const digestClientSecret = hashToken;

// A NUL never occurs in an e-mail address, so no user's failures share a client's key.
const clientKey = (tenantId: string, clientId: string) =>
  attemptKey(tenantId, undefined, `\u0000client\u0000${clientId}`);

/**
 * Compares a presented secret with the stored digest, under Keycloak's brute-force rules per
 * client. Only failures are counted — atomically, in the same statement that reads the lock —
 * so that a busy client's right secrets are never serialised on one row; a locked client is
 * refused even with its right secret until the lock passes.
 */
export async function verifyClientSecret(
  lockout: ClientLockout,
  tenantId: string,
  clientId: string,
  storedDigest: string | undefined,
  presented: string,
): Promise<boolean> {
  const key = clientKey(tenantId, clientId);
  const expected = Buffer.from(storedDigest ?? '');
  const actual = Buffer.from(digestClientSecret(presented));
  const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (!matches) {
    await takeLoginAttempt(lockout.db, lockout.settings, { id: key, tenantId });
    return false;
  }
  const [failures] = await lockout.db
    .select({ notBefore: loginFailures.notBefore })
    .from(loginFailures)
    .where(eq(loginFailures.userId, key));
  if (!failures) return true;
  if (isLocked(failures.notBefore)) return false;
  await clearLoginFailures(lockout.db, key);
  return true;
}
