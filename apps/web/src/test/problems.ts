import { HttpResponse } from 'msw';

/**
 * The server's RFC 9457 answers, built in one place so that a field the format gains is added
 * here once rather than in every test.
 */
export interface ProblemFixture {
  status: number;
  title: string;
  detail?: string;
  /** Field name → message, as the server reports validation and conflict failures. */
  errors?: Record<string, string>;
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export function problem(
  status: number,
  fields: Omit<ProblemFixture, 'status' | 'title'> & { title?: string } = {},
): ProblemFixture {
  const { title, ...rest } = fields;
  return { status, title: title ?? titles[status] ?? 'Error', ...rest };
}

/** A problem answer as the server sends it, with its media type. */
export function problemResponse(
  status: number,
  fields: Parameters<typeof problem>[1] = {},
  headers: Record<string, string> = {},
) {
  return HttpResponse.json(problem(status, fields), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
}
