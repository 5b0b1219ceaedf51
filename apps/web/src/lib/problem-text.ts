import type { TFunction } from 'i18next';
import {
  isProblemCode,
  problemText,
  type CodedProblem,
  type ProblemParams,
} from '@tc/contract/problem-codes';
import { ApiError } from './api-client';

/**
 * Problem codes are dotted (`user.email_taken`), so neither '.' nor ':' may split the key.
 * React escapes what it renders; escaping here would show a role named R&D as R&amp;D.
 */
const LOOKUP = {
  ns: 'problems',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
} as const;

/** A coded problem in the interface language; English from the contract if a text is missing. */
export function translateCode(t: TFunction, problem: CodedProblem): string {
  const params = problem.params ?? {};
  return t(problem.code, { ...LOOKUP, ...params, defaultValue: problemText(problem.code, params) });
}

/**
 * A form field's error travels through react-hook-form as one string: the code, then its
 * parameters as JSON when it has any. Both the console's own validation (the contract's
 * schemas word their refusals as codes) and a server answer's `fields` are put this way.
 */
export function encodeFieldProblem(problem: CodedProblem): string {
  const params = problem.params ?? {};
  return Object.keys(params).length === 0
    ? problem.code
    : `${problem.code} ${JSON.stringify(params)}`;
}

/** A field message back as the code and parameters it was encoded from; undefined if no code. */
export function decodeFieldProblem(message: string): CodedProblem | undefined {
  const space = message.indexOf(' ');
  const code = space < 0 ? message : message.slice(0, space);
  if (!isProblemCode(code)) return undefined;
  if (space < 0) return { code };
  try {
    return { code, params: JSON.parse(message.slice(space + 1)) as ProblemParams };
  } catch {
    return { code };
  }
}

/** A field's error message in the interface language (a text that is no code stays as it is). */
export function translateFieldMessage(t: TFunction, message: string): string {
  const problem = decodeFieldProblem(message);
  return problem ? translateCode(t, problem) : message;
}

/** A failed request's problem per field, as codes (the server's `fields`). */
export function problemFields(error: ApiError): Record<string, CodedProblem> {
  return error.problem?.fields ?? {};
}

/**
 * A readable message for any failure, in the interface language: the problem's fields when
 * it names some (they say what to correct), else the problem itself, else the error's text.
 */
export function describeFailure(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(problemFields(error));
    if (fields.length > 0) return fields.map((field) => translateCode(t, field)).join(' ');
    const code = error.problem?.code;
    if (code) return translateCode(t, { code, params: error.problem?.params });
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * A failed save on a form: each field problem the form has a field for lands on that field
 * (kept as a code, translated where it is shown); the rest, or the problem itself when it
 * names no field, is the failure to show above the form. Nothing typed is lost either way.
 */
export function placeFieldProblems(
  t: TFunction,
  error: unknown,
  fieldNames: ReadonlySet<string>,
  setFieldError: (field: string, message: string) => void,
): { placed: string[]; failure: string | null } {
  if (!(error instanceof ApiError)) return { placed: [], failure: t('lists:networkError') };
  const placed: string[] = [];
  const unplaced: string[] = [];
  for (const [field, problem] of Object.entries(problemFields(error))) {
    if (fieldNames.has(field)) {
      setFieldError(field, encodeFieldProblem(problem));
      placed.push(field);
    } else unplaced.push(translateCode(t, problem));
  }
  if (unplaced.length > 0) return { placed, failure: unplaced.join(' ') };
  return { placed, failure: placed.length === 0 ? describeFailure(t, error) : null };
}
