import { HttpResponse } from 'msw';
import type { Problem } from '@tc/contract/problem';
import {
  problemText,
  type CodedProblem,
  type ProblemCode,
  type ProblemParams,
} from '@tc/contract/problem-codes';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

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
  const { params, fields } = options;
  const body: Problem = {
    type: 'about:blank',
    title: titles[status] ?? 'Error',
    status,
    detail: problemText(code, params),
    code,
    ...(params ? { params } : {}),
  };
  if (fields) {
    const coded = Object.entries(fields).map(
      ([field, value]) => [field, typeof value === 'string' ? { code: value } : value] as const,
    );
    body.fields = Object.fromEntries(coded);
    body.errors = Object.fromEntries(
      coded.map(([field, value]) => [field, problemText(value.code, value.params)]),
    );
  }
  return body;
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
