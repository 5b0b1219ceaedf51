import { HttpResponse } from 'msw';
import { problemDocument, type Problem } from '@tc/contract/problem';
import {
  type CodedProblem,
  type ProblemCode,
  type ProblemParams,
} from '@tc/contract/problem-codes';

export interface ProblemOptions {
  params?: ProblemParams;
  /** Field name → its problem, as the server reports validation and conflict failures. */
  fields?: Record<string, ProblemCode | CodedProblem>;
}

/**
 * The server's RFC 9457 answer for a code, built the way the server builds it (English
 * `detail` and `errors` from the contract's catalogue beside the codes), in one place so a
 * field the format gains is added here once rather than in every test.
 */
export function problem(status: number, code: ProblemCode, options: ProblemOptions = {}): Problem {
  const fields = Object.entries(options.fields ?? {}).map(
    ([field, value]) => [field, typeof value === 'string' ? { code: value } : value] as const,
  );
  return problemDocument(status, { code, params: options.params }, Object.fromEntries(fields));
}

/** A problem answer as the server sends it, with its media type. */
export function problemResponse(
  status: number,
  code: ProblemCode,
  options: ProblemOptions = {},
  headers: Record<string, string> = {},
) {
  return HttpResponse.json(problem(status, code, options), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
}
