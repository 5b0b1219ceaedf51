import { eq } from 'drizzle-orm';
import type { BruteForceSettings } from '../config';
import type { Database } from '../db/database';
import { loginFailures } from '../db/schema/identity';

/**
 * Keycloak's brute-force detection (DefaultBruteForceProtector), per user:
 * - failures older than `maxDeltaSeconds` are forgotten;
 * - two failures closer than `quickLoginCheckMs` lock for `quickLoginWaitSeconds`;
 * - from `failureFactor` failures on, each failure locks for `waitIncrementSeconds` more,
 *   up to `maxWaitSeconds`.
 */
export function nextLock(
  settings: BruteForceSettings,
  previous: { numFailures: number; lastFailure: Date } | undefined,
  now: Date,
): { numFailures: number; notBefore: Date | null } {
  const delta = previous ? now.getTime() - previous.lastFailure.getTime() : 0;
  const forgotten = !previous || delta > settings.maxDeltaSeconds * 1000;
  const numFailures = (forgotten ? 0 : previous.numFailures) + 1;
  let waitSeconds = 0;
  if (!forgotten && delta < settings.quickLoginCheckMs)
    waitSeconds = settings.quickLoginWaitSeconds;
  if (numFailures >= settings.failureFactor) {
    const grown = settings.waitIncrementSeconds * (numFailures - settings.failureFactor + 1);
    waitSeconds = Math.max(waitSeconds, Math.min(grown, settings.maxWaitSeconds));
  }
  return {
    numFailures,
    notBefore: waitSeconds > 0 ? new Date(now.getTime() + waitSeconds * 1000) : null,
  };
}

export async function recordLoginFailure(
  db: Database,
  settings: BruteForceSettings,
  user: { id: string; tenantId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    // Row lock: concurrent failures of one user are counted one after the other.
    const [previous] = await tx
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.userId, user.id))
      .for('update');
    const now = new Date();
    const next = nextLock(settings, previous, now);
    await tx
      .insert(loginFailures)
      .values({ userId: user.id, tenantId: user.tenantId, lastFailure: now, ...next })
      .onConflictDoUpdate({
        target: loginFailures.userId,
        set: { lastFailure: now, numFailures: next.numFailures, notBefore: next.notBefore },
      });
  });
}

export async function clearLoginFailures(db: Database, userId: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.userId, userId));
}

export const isLocked = (notBefore: Date | null, now = new Date()) =>
  notBefore !== null && notBefore.getTime() > now.getTime();
