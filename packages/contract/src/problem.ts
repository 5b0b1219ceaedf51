import { z } from 'zod';
import { PROBLEM_CODES, type ProblemCode } from './problem-codes';

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
