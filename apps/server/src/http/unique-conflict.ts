import type { ProblemCode } from '@tc/contract/problem-codes';
import { uniqueViolation } from '../db/errors';
import { conflict } from './problem';

/** What a unique index guards: the field it is about and how a clash is told. */
export interface UniqueField {
  field: string;
  /** The problem as a whole. */
  code: ProblemCode;
  /** The message on the field; the whole problem's code when left out. */
  fieldCode?: ProblemCode;
}

/**
 * Runs a write; a unique index it breaks (a duplicate, or a concurrent insert that won the
 * race past a pre-check) becomes the 409 on the field that index guards instead of a 500.
 * Other failures pass through unchanged.
 */
export async function withUniqueFields<T>(
  write: () => Promise<T>,
  indexes: Record<string, UniqueField>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const index = uniqueViolation(error);
    const clash = index === undefined ? undefined : indexes[index];
    if (!clash) throw error;
    throw conflict(clash.code, {}, { [clash.field]: clash.fieldCode ?? clash.code });
  }
}
