import { z } from 'zod';

/** RFC 9457 problem details, with `errors` (field → message) for validation failures. */
export const problemSchema = z
  .object({
    type: z.string().default('about:blank'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof problemSchema>;

/** Wraps a payload in the success envelope `{ data: … }`. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });
