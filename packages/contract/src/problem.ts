import { z } from 'zod';
import { PROBLEM_CODES, problemText, type CodedProblem, type ProblemCode } from './problem-codes';

const codeSchema = z.enum(PROBLEM_CODES as [ProblemCode, ...ProblemCode[]]);
const paramsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/**
 * RFC 9457 problem details. `code` and `params` say what went wrong as data, for the console
 * to put in the reader's language; `detail` is the same in English. For a refused field,
 * `errors` holds its English message (field path → text) and `fields` its code.
 */
export const problemSchema = z
  .object({
    type: z.string().default('about:blank'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    code: codeSchema.optional(),
    params: paramsSchema.optional(),
    errors: z.record(z.string(), z.string()).optional(),
    fields: z
      .record(z.string(), z.object({ code: codeSchema, params: paramsSchema.optional() }))
      .optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof problemSchema>;

/** Wraps a payload in the success envelope `{ data: … }`. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const statusTitle = (status: number) => TITLES[status] ?? 'Error';

/** A refused field: its code, and an English text when it is not the code's own. */
export type FieldAnswer = CodedProblem & { text?: string };

/** The problem document for a coded problem: the English made from the codes, beside them. */
export function problemDocument(
  status: number,
  problem: CodedProblem,
  fields: Record<string, FieldAnswer> = {},
): Problem {
  const { code, params } = problem;
  const body: Problem = {
    type: 'about:blank',
    title: statusTitle(status),
    status,
    detail: problemText(code, params),
    code,
    ...(params && Object.keys(params).length > 0 ? { params } : {}),
  };
  const paths = Object.keys(fields);
  if (paths.length === 0) return body;
  body.errors = {};
  body.fields = {};
  for (const path of paths) {
    const field = fields[path]!;
    body.errors[path] = field.text ?? problemText(field.code, field.params);
    body.fields[path] =
      field.params && Object.keys(field.params).length > 0
        ? { code: field.code, params: field.params }
        : { code: field.code };
  }
  return body;
}
