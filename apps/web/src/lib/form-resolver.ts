import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { fieldProblem } from '@tc/contract/field-problem';
import { encodeFieldProblem } from './problem-text';

/**
 * react-hook-form validation with a contract schema, keeping what each refusal needs to be
 * translated: the code the schema worded it with and the bound it broke (`maximum`), which
 * the stock zod resolver drops.
 */
export function contractResolver<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
): Resolver<Input, unknown, Output> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      if (errors[path]) continue;
      const problem = fieldProblem({ ...issue, message: issue.message } as never);
      errors[path] = { type: issue.code, message: encodeFieldProblem(problem) };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}
