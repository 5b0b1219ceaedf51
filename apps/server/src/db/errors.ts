/** The PostgreSQL error behind a Drizzle error (both drivers put it in `cause`). */
function postgresError(error: unknown): { code?: string; constraint?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return candidate as { code?: string; constraint?: string };
    }
    current = candidate.cause;
  }
  return undefined;
}

/** The name of the unique constraint an insert or update broke, if that is what failed. */
export function uniqueViolation(error: unknown): string | undefined {
  const pgError = postgresError(error);
  return pgError?.code === '23505' ? (pgError.constraint ?? 'unknown') : undefined;
}

/** The foreign key an insert, update or delete broke, if that is what failed. */
export function foreignKeyViolation(error: unknown): string | undefined {
  const pgError = postgresError(error);
  return pgError?.code === '23503' ? (pgError.constraint ?? 'unknown') : undefined;
}
