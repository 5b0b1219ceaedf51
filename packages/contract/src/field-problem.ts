import { isProblemCode, type CodedProblem, type ProblemParams } from './problem-codes';

/** The parts of a zod issue that say what was refused (zod's own issue shape, loosely). */
export interface SchemaIssue {
  code: string;
  message: string;
  maximum?: unknown;
  minimum?: unknown;
}

/** The bounds a too-long or too-short value was held to, as the message's parameters. */
function boundsOf(issue: SchemaIssue): ProblemParams {
  const params: ProblemParams = {};
  for (const name of ['maximum', 'minimum'] as const) {
    const value = issue[name];
    if (typeof value === 'number' || typeof value === 'bigint') params[name] = Number(value);
  }
  return params;
}

/**
 * What a schema refused, as a problem code. The schemas of this package word their refusals
 * as codes; anything else (zod's own messages: a missing field, an unexpected key) gets a
 * generic code, so every field error can be translated.
 */
export function fieldProblem(issue: SchemaIssue): CodedProblem {
  const params = boundsOf(issue);
  if (isProblemCode(issue.message)) return { code: issue.message, params };
  if (issue.code === 'unrecognized_keys') return { code: 'field.unknown', params };
  // zod reports a missing field as a wrong type; its input is kept out of the issue.
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
    return { code: 'field.required', params };
  }
  return { code: 'field.invalid', params };
}
