import { and, isNotNull, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** One key of a list's order: its expression, and whether it may be NULL. */
export interface KeysetKey {
  key: AnyColumn | SQL;
  nullable?: boolean;
}

/** The key values of the last row read, as text (NULL as null): where the next batch starts. */
export type Cursor = ReadonlyArray<string | null>;

/**
 * The keys as text columns `k0`, `k1`, … to select beside a row: the row's cursor. Text keeps
 * every value exact (a timestamp's microseconds, a numeric's digits) and goes back as a
 * parameter whose type PostgreSQL takes from the key it is compared with.
 */
export function cursorColumns(keys: readonly KeysetKey[]): Record<string, SQL<string | null>> {
  return Object.fromEntries(
    keys.map(({ key }, i) => [`k${i}`, sql<string | null>`(${key})::text`]),
  );
}

/** The cursor of a row selected with `cursorColumns`. */
export function cursorOf(row: Record<string, unknown>, keys: readonly KeysetKey[]): Cursor {
  return keys.map((_, i) => {
    const value = row[`k${i}`];
    return value === null || value === undefined ? null : String(value);
  });
}

/**
 * The rows after `cursor` in the order of `keys` (all ascending, or all descending), as
 * PostgreSQL sorts them: NULLs last ascending, first descending. Without a nullable key this
 * is one row comparison, which a B-tree index of the same keys answers as a range, so every
 * batch starts where the last ended instead of skipping the rows before it. With one, it is
 * spelled out key by key.
 */
export function afterCursor(keys: readonly KeysetKey[], cursor: Cursor, descending: boolean): SQL {
  if (keys.every((key) => !key.nullable) && cursor.every((value) => value !== null)) {
    const row = (items: readonly SQL[]) => sql`(${sql.join([...items], sql`, `)})`;
    const keyRow = row(keys.map(({ key }) => sql`${key}`));
    const valueRow = row(cursor.map((value) => sql`${value}`));
    return descending ? sql`${keyRow} < ${valueRow}` : sql`${keyRow} > ${valueRow}`;
  }
  const equal = (i: number) => {
    const value = cursor[i];
    return value === null || value === undefined
      ? isNull(keys[i]!.key)
      : sql`${keys[i]!.key} = ${value}`;
  };
  const beyond = (i: number): SQL | undefined => {
    const { key, nullable } = keys[i]!;
    const value = cursor[i];
    if (value === null || value === undefined) return descending ? isNotNull(key) : undefined;
    if (descending) return sql`${key} < ${value}`;
    return nullable ? or(sql`${key} > ${value}`, isNull(key)) : sql`${key} > ${value}`;
  };
  const terms = keys.flatMap((_, i) => {
    const after = beyond(i);
    if (!after) return [];
    return [and(...keys.slice(0, i).map((__, j) => equal(j)), after)!];
  });
  return terms.length > 0 ? or(...terms)! : sql`false`;
}

/**
 * Reads a list batch by batch: `read` answers up to `size` rows after a cursor (none: from
 * the start), `cursor` tells a row's; it ends at a short batch. Memory holds one batch.
 */
export async function* keysetBatches<Row>(
  read: (after: Cursor | undefined, size: number) => Promise<Row[]>,
  cursor: (row: Row) => Cursor,
  size: number,
): AsyncGenerator<Row[]> {
  let after: Cursor | undefined;
  for (;;) {
    const batch = await read(after, size);
    if (batch.length > 0) yield batch;
    if (batch.length < size) return;
    after = cursor(batch.at(-1)!);
  }
}
