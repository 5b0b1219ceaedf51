/** One field of an audited entity, as the detail drawer shows it. */
export interface FieldChange {
  field: string;
  /** Compact text of the value (JSON for objects and arrays); undefined: the side lacks it. */
  before?: string;
  after?: string;
}

/** What an entry changed: the fields it changed, and the fields it left as they were. */
export interface ChangeDiff {
  /** Which sides the entry has: a created entity only after, a deleted one only before. */
  sides: 'before' | 'after' | 'both' | 'none';
  changed: FieldChange[];
  unchanged: FieldChange[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A value as one line: text as it is, everything else (numbers, booleans, null, nested
 * objects and arrays) as compact JSON, so `null` and `"null"` read differently only where
 * they are.
 */
export function compactValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/** A side that is not an object (a bare value) is shown as one field named `value`. */
const fieldsOf = (side: unknown): Record<string, unknown> =>
  isRecord(side) ? side : side === null || side === undefined ? {} : { value: side };

const present = (side: unknown) => side !== null && side !== undefined;

/**
 * The entry's before and after, field by field in the entity's own order (after's, then the
 * fields only before had): those that differ (compared as JSON, so a nested object that
 * changed inside counts as changed) and those that do not. A created or deleted entity has
 * one side only, and all its fields are listed as changed, with that side's values.
 */
export function changeDiff(before: unknown, after: unknown): ChangeDiff {
  const sides =
    present(before) && present(after)
      ? 'both'
      : present(after)
        ? 'after'
        : present(before)
          ? 'before'
          : 'none';
  const old = fieldsOf(before);
  const next = fieldsOf(after);
  const fields = [...new Set([...Object.keys(next), ...Object.keys(old)])];
  const changed: FieldChange[] = [];
  const unchanged: FieldChange[] = [];
  for (const field of fields) {
    const row: FieldChange = { field };
    if (field in old) row.before = compactValue(old[field]);
    if (field in next) row.after = compactValue(next[field]);
    const same =
      sides === 'both' &&
      field in old &&
      field in next &&
      JSON.stringify(old[field]) === JSON.stringify(next[field]);
    (same ? unchanged : changed).push(row);
  }
  return { sides, changed, unchanged };
}
