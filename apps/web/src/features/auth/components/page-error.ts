import type { AuthPageError } from '@tc/contract/auth-page';
import type { Problem } from '@tc/contract/problem';
import type { CodedProblem } from '@tc/contract/problem-codes';
import { ApiError } from '../../../lib/api-client';
import { SignInStepError } from '../../../lib/sign-in-steps';

/**
 * The refusal of a form posted without script, as the script would have met it: a step's
 * OAuth error as SignInStepError (its status from the error: an expired request is 400, too
 * many tries 429, anything else a refused answer, 401), an API problem as ApiError. So a page
 * shows it through the same message function as a refusal met with script.
 */
export function pageFailure(error: AuthPageError | undefined): unknown {
  if (!error) return undefined;
  if (error.kind === 'oauth') {
    const status =
      error.error === 'invalid_request' ? 400 : error.error === 'too_many_requests' ? 429 : 401;
    return new SignInStepError(status, error.error, error.description);
  }
  const problem = {
    type: 'about:blank',
    title: error.code,
    status: error.status,
    code: error.code,
    fields: error.fields,
  } as Problem;
  return new ApiError(error.status, error.code, problem);
}

/** The field problems of a failure (a server answer's `fields`), by field name. */
export function fieldProblems(error: unknown): Record<string, CodedProblem> {
  if (!(error instanceof ApiError)) return {};
  return (error.problem?.fields ?? {}) as Record<string, CodedProblem>;
}

/**
 * Whether a failure needs its own message above the form: it names no field, or one the form
 * does not have. Field problems the form shows at their fields are not said twice (as with
 * the checks the page makes before posting).
 */
export function failureBeyondFields(error: unknown, formFields: readonly string[]): boolean {
  const texts = (error as { problem?: { errors?: Record<string, string> } } | undefined)?.problem
    ?.errors;
  const named = [...Object.keys(fieldProblems(error)), ...Object.keys(texts ?? {})];
  return named.length === 0 || named.some((field) => !formFields.includes(field));
}
