import type { SQL } from 'drizzle-orm';
import type { Database } from './database';

/** The part of Drizzle's session that prepares a query; Drizzle exposes it for builders only. */
interface DrizzleInternals {
  session: {
    prepareQuery(
      query: unknown,
      fields: undefined,
      name: string,
      arrayMode: boolean,
    ): { execute(values: Record<string, unknown>): Promise<unknown> };
  };
  dialect: { sqlToQuery(query: SQL): unknown };
}

/**
 * Prepares a raw SQL statement (with `sql.placeholder`s) as a named statement, as Drizzle does
 * for its query builders: PostgreSQL parses and plans it once per connection. Used only on
 * the token endpoint's hot path, where the statements are data-modifying CTEs.
 */
export function prepareRawStatement(db: Database, name: string, query: SQL) {
  const { session, dialect } = db as unknown as DrizzleInternals;
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
}
