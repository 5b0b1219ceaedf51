import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { BruteForceSettings } from '../config';
import type { Database } from '../db/database';

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

/** Keycloak's record of failures, as the lock is computed from it. */
interface FailureRow {
  numFailures: number;
  lastFailure: Date;
  notBefore: Date | null;
}

/**
 * An attempt under way: its guess (a password, a code) is being checked. It is counted as
 * pending, apart from confirmed failures, and settled once, as a failure, a success or
 * neither (`failLoginAttempt`, `passLoginAttempt`, `withdrawLoginAttempt`).
 */
export interface LoginAttempt {
  /** False when the account is locked: the attempt must be refused without any check. */
  allowed: boolean;
  key: string;
  /** Set once the attempt is settled, so that settling twice changes nothing. */
  settled: boolean;
}

/**
 * How long a pending attempt counts when it is never settled (its process ended while
 * checking): far longer than a password hash, short enough that nobody waits on it for long.
 */
const PENDING_SECONDS = 30;

type Admission = LoginAttempt | 'wait';

/**
 * One try at admitting an attempt, in one transaction holding the row's lock. Refused when
 * the account is locked. Admitted when the account would not be locked even if every attempt
 * pending now failed: a parallel burst of guesses then gets no more of them checked than the
 * same requests sent one after the other. Otherwise the answer waits on those attempts.
 */
async function admit(
  db: Database,
  settings: BruteForceSettings,
  key: { id: string; tenantId: string },
): Promise<Admission> {
  return db.transaction(async (tx) => {
    // Creates the row if need be and locks it in one statement: concurrent first attempts
    // queue on the same row instead of each seeing none. Losing the last counts in a crash
    // is an accepted trade for not waiting on the disk (asynchronous commit).
    const locked = await tx.execute(sql`
      insert into login_failures (user_id, tenant_id, num_failures, last_failure)
      values (${key.id}, ${key.tenantId}, 0, 'epoch')
      on conflict (user_id) do update set num_failures = login_failures.num_failures
      returning num_failures as "numFailures", last_failure as "lastFailure",
        not_before as "notBefore", pending,
        coalesce(pending_until > now(), false) as "pendingCurrent",
        set_config('synchronous_commit', 'off', true)`);
    const row = (
      locked as unknown as {
        rows: Array<FailureRow & { pending: number; pendingCurrent: boolean }>;
      }
    ).rows[0]!;
    const now = new Date();
    const notBefore = row.notBefore === null ? null : new Date(row.notBefore);
    if (isLocked(notBefore, now)) return { allowed: false, key: key.id, settled: true };
    const pending = row.pendingCurrent ? row.pending : 0;
    const lastFailure = new Date(row.lastFailure);
    let state =
      lastFailure.getTime() === 0 ? undefined : { numFailures: row.numFailures, lastFailure };
    for (let i = 0; i < pending; i += 1) {
      const next = nextLock(settings, state, now);
      if (isLocked(next.notBefore, now)) return 'wait';
      state = { numFailures: next.numFailures, lastFailure: now };
    }
    await tx.execute(sql`
      update login_failures set pending = ${pending + 1},
        pending_until = now() + ${PENDING_SECONDS} * interval '1 second'
      where user_id = ${key.id}`);
    return { allowed: true, key: key.id, settled: false };
  });
}

/**
 * Starts one attempt at a guess (a password, a second factor's code) under Keycloak's
 * brute-force rules: refused without any check while the account is locked, admitted as
 * pending otherwise, and held back while the attempts already pending could, by failing,
 * lock the account — it is decided once they are settled. So correct sign-ins that arrive
 * together all go through, and a parallel burst of wrong ones gets no more guesses than the
 * same requests sent one after the other. `allowed` is false when the attempt must be refused
 * without looking at its guess.
 */
export async function startLoginAttempt(
  db: Database,
  settings: BruteForceSettings,
  key: { id: string; tenantId: string },
): Promise<LoginAttempt> {
  let pause = 10;
  for (;;) {
    const admission = await admit(db, settings, key);
    if (admission !== 'wait') {
      attemptObservers.get(db)?.(admission);
      return admission;
    }
    // The attempts waited on are settled within a password hash, or count no more after
    // PENDING_SECONDS: the wait ends either way.
    await sleep(pause);
    pause = Math.min(pause * 2, 200);
  }
}

/** Told of each decided attempt, by the database handle it was counted on (metrics). */
export const attemptObservers = new WeakMap<object, (attempt: LoginAttempt) => void>();

/** Whether this call settles the attempt: an attempt is settled once, and a refused one never. */
function settles(attempt: LoginAttempt) {
  if (attempt.settled) return false;
  attempt.settled = true;
  return true;
}

const releasePending = sql`pending = greatest(login_failures.pending - 1, 0)`;

/**
 * Settles an attempt as a failure: it leaves the pending ones and counts toward the lock, in
 * one transaction holding the row's lock (the lock grows from the failures before it).
 */
export async function failLoginAttempt(
  db: Database,
  settings: BruteForceSettings,
  attempt: LoginAttempt,
): Promise<void> {
  if (!settles(attempt)) return;
  await db.transaction(async (tx) => {
    const found = (await tx.execute(sql`
      select num_failures as "numFailures", last_failure as "lastFailure"
      from login_failures where user_id = ${attempt.key} for update`)) as unknown as {
      rows: Array<{ numFailures: number; lastFailure: Date }>;
    };
    const row = found.rows[0];
    // The record was cleared meanwhile (a new password set by an administrator): this
    // failure belongs to what was cleared.
    if (!row) return;
    const lastFailure = new Date(row.lastFailure);
    const previous =
      lastFailure.getTime() === 0 ? undefined : { numFailures: row.numFailures, lastFailure };
    const now = new Date();
    const next = nextLock(settings, previous, now);
    await tx.execute(sql`
      update login_failures set num_failures = ${next.numFailures},
        last_failure = ${now.toISOString()}::timestamptz,
        not_before = ${next.notBefore?.toISOString() ?? null}::timestamptz, ${releasePending}
      where user_id = ${attempt.key}`);
  });
}

/**
 * Settles an attempt as a complete sign-in: it leaves the pending ones and the account's
 * failures are forgotten (Keycloak clears them on success).
 */
export async function passLoginAttempt(db: Pick<Database, 'execute'>, attempt: LoginAttempt) {
  if (!settles(attempt)) return;
  await db.execute(sql`update login_failures set ${releasePending} where user_id = ${attempt.key}`);
  await clearLoginFailures(db, attempt.key);
}

/**
 * Settles an attempt as neither: a right password whose second factor is still to come. It
 * leaves the pending ones and earlier failures stay, so that a password sent again never buys
 * more guesses at the code.
 */
export async function withdrawLoginAttempt(db: Pick<Database, 'execute'>, attempt: LoginAttempt) {
  if (!settles(attempt)) return;
  await db.execute(sql`update login_failures set ${releasePending} where user_id = ${attempt.key}`);
}

/**
 * Forgets an account's failures (a right sign-in, a new password set for it). Attempts still
 * pending keep the row, each one statement, so that none is lost to a concurrent admission.
 */
export async function clearLoginFailures(
  db: Pick<Database, 'execute'>,
  userId: string,
): Promise<void> {
  await db.execute(sql`
    update login_failures set num_failures = 0, last_failure = 'epoch', not_before = null
    where user_id = ${userId}`);
  await db.execute(sql`
    delete from login_failures
    where user_id = ${userId} and (pending = 0 or pending_until <= now())`);
}

export const isLocked = (notBefore: Date | null, now = new Date()) =>
  notBefore !== null && notBefore.getTime() > now.getTime();
