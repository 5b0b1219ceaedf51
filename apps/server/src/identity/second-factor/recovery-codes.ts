import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';

type Executor = Pick<Database, 'execute'>;

export const RECOVERY_CODE_COUNT = 10;
// Crockford's base32 without I, L, O, U: nothing to confuse when read off paper.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 80 random bits as four groups of four: `7KQ2-M9XD-4TWB-HC3N`. */
function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => ALPHABET[b % 32]!).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** What a typed code is compared as: case, spaces and dashes do not matter. */
const normalise = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');
const hashOf = (code: string) => createHash('sha256').update(normalise(code)).digest('base64url');

/**
 * Replaces the user's recovery codes by ten new ones and answers them: the only time they
 * are ever readable, since only their hashes are kept.
 */
export async function replaceRecoveryCodes(
  db: Pick<Database, 'execute' | 'transaction'>,
  user: { id: string; tenantId: string },
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from recovery_codes where user_id = ${user.id}`);
    for (const code of codes) {
      await tx.execute(sql`
        insert into recovery_codes (user_id, tenant_id, code_hash)
        values (${user.id}, ${user.tenantId}, ${hashOf(code)})`);
    }
  });
  return codes;
}

/** Uses a code up, atomically: true for exactly one caller, whoever else sends it at once. */
export async function useRecoveryCode(
  db: Executor,
  user: { id: string; tenantId: string },
  code: string,
): Promise<boolean> {
  if (normalise(code).length !== 16) return false;
  const result = (await db.execute(sql`
    update recovery_codes set used_at = now()
    where user_id = ${user.id} and tenant_id = ${user.tenantId}
      and code_hash = ${hashOf(code)} and used_at is null
    returning id`)) as unknown as { rows: unknown[] };
  return result.rows.length === 1;
}

export async function remainingRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const result = (await db.execute(sql`
    select count(*)::int as n from recovery_codes where user_id = ${userId} and used_at is null`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return result.rows[0]?.n ?? 0;
}

export async function removeRecoveryCodes(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`delete from recovery_codes where user_id = ${userId}`);
}
