import { Secret, TOTP } from 'otpauth';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import type { SecretBox } from './secret-box';

type Executor = Pick<Database, 'execute'>;

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** One step either side: a phone's clock a little off, or a code typed as it changed. */
const WINDOW = 1;

const totpOf = (secret: string, label = '', issuer = '') =>
  new TOTP({ ...PARAMETERS, issuer, label, secret: Secret.fromBase32(secret) });

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** What an enrolment shows: the secret as text, and the URI the browser draws as a QR code. */
export interface TotpEnrolment {
  secret: string;
  otpauthUri: string;
}

/**
 * Starts (or restarts) a user's enrolment: a fresh secret, stored encrypted and unconfirmed.
 * A confirmed secret is never replaced here: the user removes it first.
 */
export async function startTotpEnrolment(
  db: Executor,
  box: SecretBox,
  user: { id: string; tenantId: string; email: string },
  issuer: string,
): Promise<TotpEnrolment | undefined> {
  const secret = new Secret({ size: 20 }).base32;
  const rows = rowsOf<{ userId: string }>(
    await db.execute(sql`
      insert into totp_secrets (user_id, tenant_id, secret_encrypted)
      values (${user.id}, ${user.tenantId}, ${box.seal(secret, user.id)})
      on conflict (user_id) do update set secret_encrypted = excluded.secret_encrypted,
        last_step = null, created_at = now()
        where totp_secrets.confirmed_at is null
      returning user_id as "userId"`),
  );
  if (rows.length === 0) return undefined;
  return { secret, otpauthUri: totpOf(secret, user.email, issuer).toString() };
}

/**
 * Checks a code against the user's secret and uses its time step up, in one statement, so
 * that the same code (or an earlier one) is never accepted twice, even by two requests at
 * once. `confirmed`: whether the secret must already be confirmed (sign-in) or must not be
 * (the first code of an enrolment, which confirms it).
 */
export async function useTotpCode(
  db: Executor,
  box: SecretBox,
  user: { id: string; tenantId: string },
  code: string,
  confirmed: boolean,
): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const [row] = rowsOf<{ secret: string; lastStep: number | null }>(
    await db.execute(sql`
      select secret_encrypted as secret, last_step as "lastStep" from totp_secrets
      where user_id = ${user.id} and tenant_id = ${user.tenantId}
        and (confirmed_at is not null) = ${confirmed}`),
  );
  const secret = row ? box.open(row.secret, user.id) : undefined;
  if (!secret) return false;
  const now = Date.now();
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return false;
  const step = TOTP.counter({ period: PARAMETERS.period, timestamp: now }) + delta;
  const used = rowsOf<{ userId: string }>(
    await db.execute(sql`
      update totp_secrets set last_step = ${step},
        confirmed_at = coalesce(confirmed_at, now())
      where user_id = ${user.id} and (last_step is null or last_step < ${step})
      returning user_id as "userId"`),
  );
  return used.length === 1;
}

/** Whether the user has a confirmed authenticator app. */
export async function hasConfirmedTotp(db: Executor, userId: string): Promise<boolean> {
  const rows = rowsOf<{ one: number }>(
    await db.execute(
      sql`select 1 as one from totp_secrets where user_id = ${userId} and confirmed_at is not null`,
    ),
  );
  return rows.length > 0;
}

export async function removeTotp(db: Executor, userId: string): Promise<boolean> {
  const rows = rowsOf<{ userId: string }>(
    await db.execute(
      sql`delete from totp_secrets where user_id = ${userId} returning user_id as "userId"`,
    ),
  );
  return rows.length > 0;
}

/** For tests and the enrolment screen's own check: the code of the current step. */
export const currentTotpCode = (secret: string, timestamp = Date.now()) =>
  totpOf(secret).generate({ timestamp });
