import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { fieldProblem } from '@tc/contract/field-problem';
import { problemDocument, statusTitle, type FieldAnswer, type Problem } from '@tc/contract/problem';
import {
  problemText,
  type CodedProblem,
  type ProblemCode,
  type ProblemParams,
} from '@tc/contract/problem-codes';
import { isDatabaseUnreachable } from './database-outage';
import { loggableError, redactUrl } from './logging';

/** A refused field: its code alone, or the code with the values its text needs. */
export type FieldProblems = Record<string, ProblemCode | CodedProblem>;

/**
 * A failure the caller can act on, said as a code with parameters; the English `detail` is
 * made from the code, so the text a user reads and the code a program checks cannot disagree.
 */
export class AppError extends Error {
  readonly detail: string;
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly params: ProblemParams = {},
    readonly fields?: FieldProblems,
  ) {
    const detail = problemText(code, params);
    super(detail);
    this.detail = detail;
  }
}

export const badRequest = (code: ProblemCode, params?: ProblemParams, fields?: FieldProblems) =>
  new AppError(400, code, params, fields);
export const unauthorized = (code: ProblemCode = 'auth.sign_in_required') =>
  new AppError(401, code);
export const forbidden = (code: ProblemCode = 'auth.forbidden', params?: ProblemParams) =>
  new AppError(403, code, params);
export const notFound = (code: ProblemCode, params?: ProblemParams) =>
  new AppError(404, code, params);
export const conflict = (code: ProblemCode, params?: ProblemParams, fields?: FieldProblems) =>
  new AppError(409, code, params, fields);

type ProblemAnswer = CodedProblem & { status: number; fields?: Record<string, FieldAnswer> };

export function sendProblem(reply: FastifyReply, problem: ProblemAnswer) {
  const { status, fields, ...coded } = problem;
  return reply
    .code(status)
    .type('application/problem+json')
    .send(problemDocument(status, coded, fields));
}

const coded = (field: ProblemCode | CodedProblem): CodedProblem =>
  typeof field === 'string' ? { code: field } : field;

/** Field path of a validation issue, e.g. `filter.search`; the request part is left out. */
function validationFields(error: FastifyError): NonNullable<ProblemAnswer['fields']> {
  const fields: NonNullable<ProblemAnswer['fields']> = {};
  if (hasZodFastifySchemaValidationErrors(error)) {
    for (const issue of error.validation) {
      const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || 'body';
      if (fields[path]) continue;
      const message = issue.message ?? '';
      const problem = fieldProblem({ ...issue.params, code: issue.keyword, message });
      // zod's own wording stays the English text where no code of ours was given.
      const ours = problem.code === message;
      fields[path] = { ...problem, text: ours ? undefined : message || undefined };
    }
  }
  return fields;
}

/** One error handler for the whole app: RFC 9457 problem details, never a stack trace. */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      const fields = error.fields
        ? Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k, coded(v)]))
        : undefined;
      return sendProblem(reply, {
        status: error.status,
        code: error.code,
        params: error.params,
        fields,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendProblem(reply, {
        status: 400,
        code: 'request.invalid',
        fields: validationFields(error),
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (a body that is not JSON, one too large): its message is the
      // English detail, under one code.
      return reply
        .code(status)
        .type('application/problem+json')
        .send({
          type: 'about:blank',
          title: statusTitle(status),
          status,
          detail: error.message,
          code: 'request.refused',
        } satisfies Problem);
    }
    // Field by field: a failed query's message holds its parameters (a hash, a token digest).
    const details = {
      err: loggableError(error),
      url: redactUrl(request.url),
      method: request.method,
    };
    if (isDatabaseUnreachable(error)) {
      // An outage, not a fault of this request: 503 tells clients and load balancers to retry.
      request.log.warn(details, 'database unreachable');
      reply.header('retry-after', '5');
      return sendProblem(reply, { status: 503, code: 'service.database_unreachable' });
    }
    request.log.error(details, 'request failed');
    return sendProblem(reply, { status: 500, code: 'request.failed' });
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, {
      status: 404,
      code: 'request.route_not_found',
      params: { method: request.method, path: request.url.split('?')[0]! },
    }),
  );
}
