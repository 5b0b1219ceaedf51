import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Problem } from '@tc/contract/problem';
import { loggableError, redactUrl } from './logging';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A failure the caller can act on; `detail` is shown to users, so it is worded for them. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, errors?: Record<string, string>) =>
  new AppError(400, detail, errors);
export const unauthorized = (detail = 'Sign in to continue.') => new AppError(401, detail);
export const forbidden = (detail = 'You do not have permission to do this.') =>
  new AppError(403, detail);
export const notFound = (detail = 'Not found.') => new AppError(404, detail);
export const conflict = (detail: string, errors?: Record<string, string>) =>
  new AppError(409, detail, errors);

export function sendProblem(reply: FastifyReply, problem: Omit<Problem, 'type' | 'title'>) {
  const body: Problem = {
    type: 'about:blank',
    title: TITLES[problem.status] ?? 'Error',
    ...problem,
  };
  return reply.code(problem.status).type('application/problem+json').send(body);
}

/** Field path of a validation issue, e.g. `filter.search`; the request part is left out. */
function fieldErrors(error: FastifyError): Record<string, string> {
  const errors: Record<string, string> = {};
  if (hasZodFastifySchemaValidationErrors(error)) {
    for (const issue of error.validation) {
      const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || 'body';
      errors[path] ??= issue.message ?? 'Not valid.';
    }
  }
  return errors;
}

/** One error handler for the whole app: RFC 9457, no stack traces (docs/api-conventions.md). */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendProblem(reply, {
        status: error.status,
        detail: error.detail,
        errors: error.errors,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendProblem(reply, {
        status: 400,
        detail: 'Some values are not valid.',
        errors: fieldErrors(error),
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, { status, detail: error.message });
    }
    // Field by field: a failed query's message holds its parameters (a hash, a token digest).
    request.log.error(
      { err: loggableError(error), url: redactUrl(request.url), method: request.method },
      'request failed',
    );
    return sendProblem(reply, {
      status: 500,
      detail: 'Something went wrong on our side. Please try again.',
    });
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, {
      status: 404,
      detail: `There is no ${request.method} ${request.url.split('?')[0]}.`,
    }),
  );
}
