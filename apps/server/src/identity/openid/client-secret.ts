import { timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { BruteForceSettings } from '../../config';
import type { Database } from '../../db/database';
import { clients } from '../../db/schema/clients';
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
 * Whether the client's row says wrong secrets are on record. It is written only when it
 * changes: once at the first failure of a run, once when a right secret clears them.
 */
async function recordFailures(
  { db }: ClientLockout,
  tenantId: string,
  clientId: string,
  on: boolean,
) {
  await db
    .update(clients)
    .set({ secretFailuresRecorded: on })
    .where(
      and(
        eq(clients.tenantId, tenantId),
        eq(clients.clientId, clientId),
        eq(clients.secretFailuresRecorded, !on),
      ),
    );
}

/**
 * Compares a presented secret with the stored digest, under Keycloak's brute-force rules per
 * client. Only failures are counted — atomically, in the same statement that reads the lock —
 * so that a busy client's right secrets are never serialised on one row; a locked client is
 * refused even with its right secret until the lock passes. A client with no failures on
 * record (its row says so) is answered without a lookup.
 */
export async function verifyClientSecret(
  lockout: ClientLockout,
  attempt: {
    tenantId: string;
    clientId: string;
    storedDigest: string | undefined;
    failuresRecorded: boolean;
    presented: string;
  },
): Promise<boolean> {
  const { tenantId, clientId } = attempt;
  const key = clientKey(tenantId, clientId);
  const expected = Buffer.from(attempt.storedDigest ?? '');
  const actual = Buffer.from(digestClientSecret(attempt.presented));
  const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (!matches) {
    await takeLoginAttempt(lockout.db, lockout.settings, { id: key, tenantId });
    if (!attempt.failuresRecorded) await recordFailures(lockout, tenantId, clientId, true);
    return false;
  }
  if (!attempt.failuresRecorded) return true;
  const [failures] = await lockout.db
    .select({ notBefore: loginFailures.notBefore })
    .from(loginFailures)
    .where(eq(loginFailures.userId, key));
  if (failures && isLocked(failures.notBefore)) return false;
  if (failures) await clearLoginFailures(lockout.db, key);
  await recordFailures(lockout, tenantId, clientId, false);
  return true;
}
