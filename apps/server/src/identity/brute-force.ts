import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
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

/**
 * The key failures are counted under: the user's id, or for a username no account has, an
 * id derived from the realm and the name, so both cost the same statements.
 */
export function attemptKey(tenantId: string, userId: string | undefined, username: string) {
  if (userId) return userId;
  const hex = createHash('sha256')
    .update(`${tenantId}\n${username.trim().toLowerCase()}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface FailureRow {
  numFailures: number;
  lastFailure: Date;
  notBefore: Date | null;
}

/** What a counted attempt found and wrote: enough to undo it, and only it. */
export interface LoginAttempt {
  /** False when the account is locked: the attempt must be refused without any check. */
  allowed: boolean;
  key: string;
  before: FailureRow;
  /** Undefined when nothing was written (a locked account). */
  written: FailureRow | undefined;
}

/**
 * Counts one password attempt as a failure *before* the password is checked, in one
 * transaction holding the row's lock; a right password then clears the record. The check
 * and the count are one atomic step, so a parallel burst gets no more guesses than the same
 * requests sent one after the other. `allowed` is false when the account is locked: the
 * attempt must be refused without looking at the password.
 */
export async function countLoginAttempt(
  db: Database,
  settings: BruteForceSettings,
  key: { id: string; tenantId: string },
): Promise<LoginAttempt> {
  const attempt: LoginAttempt = await db.transaction(async (tx) => {
    // Creates the row if need be and locks it in one statement: concurrent first attempts
    // queue on the same row instead of each seeing none. Losing the last counts in a crash
    // is an accepted trade for not waiting on the disk (asynchronous commit).
    const locked = await tx.execute(sql`
      insert into login_failures (user_id, tenant_id, num_failures, last_failure)
      values (${key.id}, ${key.tenantId}, 0, 'epoch')
      on conflict (user_id) do update set num_failures = login_failures.num_failures
      returning num_failures as "numFailures", last_failure as "lastFailure",
        not_before as "notBefore", set_config('synchronous_commit', 'off', true)`);
    const row = (locked as unknown as { rows: FailureRow[] }).rows[0]!;
    const before = {
      numFailures: row.numFailures,
      lastFailure: new Date(row.lastFailure),
      notBefore: row.notBefore === null ? null : new Date(row.notBefore),
    };
    const now = new Date();
    if (isLocked(before.notBefore, now)) {
      return { allowed: false, key: key.id, before, written: undefined };
    }
    const fresh = before.lastFailure.getTime() === 0;
    const next = nextLock(settings, fresh ? undefined : before, now);
    const written = { numFailures: next.numFailures, lastFailure: now, notBefore: next.notBefore };
    await tx.update(loginFailures).set(written).where(eq(loginFailures.userId, key.id));
    return { allowed: true, key: key.id, before, written };
  });
  attemptObservers.get(db)?.(attempt);
  return attempt;
}

/** Told of each committed attempt, by the database handle it was counted on (metrics). */
export const attemptObservers = new WeakMap<object, (attempt: LoginAttempt) => void>();

/** `countLoginAttempt` for callers that need only whether the attempt may go on. */
export async function takeLoginAttempt(
  db: Database,
  settings: BruteForceSettings,
  key: { id: string; tenantId: string },
): Promise<boolean> {
  return (await countLoginAttempt(db, settings, key)).allowed;
}

const timestamp = (value: Date | null) => (value === null ? null : value.toISOString());

/**
 * Takes back one counted attempt, and nothing before it: the row gets back what it held
 * before, but only while it still holds what this attempt wrote (one compare-and-set
 * statement). Once another attempt has counted since, this one stays counted: undoing it
 * then would also undo the other's lock. A right password whose second factor is still to
 * come is undone this way, so that sending the password again never forgets failed codes.
 */
export async function undoLoginAttempt(db: Pick<Database, 'execute'>, attempt: LoginAttempt) {
  const { before, written } = attempt;
  if (!written) return false;
  const result = (await db.execute(sql`
    update login_failures set num_failures = ${before.numFailures},
      last_failure = ${timestamp(before.lastFailure)}::timestamptz,
      not_before = ${timestamp(before.notBefore)}::timestamptz
    where user_id = ${attempt.key} and num_failures = ${written.numFailures}
      and last_failure = ${timestamp(written.lastFailure)}::timestamptz
      and not_before is not distinct from ${timestamp(written.notBefore)}::timestamptz
    returning user_id`)) as unknown as { rows: unknown[] };
  return result.rows.length === 1;
}

export async function clearLoginFailures(
  db: Pick<Database, 'delete'>,
  userId: string,
): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.userId, userId));
}

export const isLocked = (notBefore: Date | null, now = new Date()) =>
  notBefore !== null && notBefore.getTime() > now.getTime();
