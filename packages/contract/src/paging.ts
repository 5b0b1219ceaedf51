import { z } from 'zod';
import { envelope } from './problem';
import { singleLineText } from './text';

/** `listSort.direction`: 0 ascending, 1 descending, as the earlier client sends it. */
export const sortDirectionSchema = z.union([z.literal(0), z.literal(1)]);

/**
 * A paged list request (docs/api-conventions.md): 1-based `pageIndex`, `pageSize` 1..100, `filter.search`
 * plus exact per-field filters, `listSort` by one of the listed columns. `listGroup` is
 * accepted as the earlier client sends it, and has no effect.
 */
export function pageRequestSchema<
  const Sort extends readonly [string, ...string[]],
  Filter extends z.ZodRawShape,
>(sortFields: Sort, filterShape: Filter, defaultSort: Sort[number] = sortFields[0]) {
  return z.object({
    pageIndex: z.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(10),
    filter: z
      .object({ search: singleLineText().trim().max(200).optional(), ...filterShape })
      .strict()
      .default({} as never),
    listSort: z
      .object({ field: z.enum(sortFields), direction: sortDirectionSchema.default(0) })
      .default({ field: defaultSort, direction: 0 } as never),
    listGroup: z
      .object({
        field: singleLineText().max(100).optional(),
        direction: sortDirectionSchema.optional(),
        isExpanded: z.boolean().optional(),
      })
      .optional(),
  });
}
export type PageRequest = {
  pageIndex: number;
  pageSize: number;
  filter: { search?: string | undefined } & Record<string, unknown>;
  listSort: { field: string; direction: 0 | 1 };
};

/**
 * The most matches a list counts exactly. A count that reads more stops there: the page answers
 * this many as its `totalCount`, flagged `totalCountIsEstimate`, and the console says "more
 * than" this number instead of a count.
 */
export const COUNT_CAP = 10_000;

/**
 * `{ data: { data: [rows], pageIndex, pageSize, totalCount } }`, always an array of rows.
 * `totalCountIsEstimate: true` (present only then) says the count stopped early: more rows
 * than `totalCount` (`COUNT_CAP`) match.
 */
export function pageResponseSchema<Row extends z.ZodType>(row: Row) {
  return envelope(
    z.object({
      data: z.array(row),
      pageIndex: z.number().int(),
      pageSize: z.number().int(),
      totalCount: z.number().int(),
      totalCountIsEstimate: z.boolean().optional(),
    }),
  );
}
export interface Page<Row> {
  data: Row[];
  pageIndex: number;
  pageSize: number;
  totalCount: number;
  /** Present, and true, only when the count stopped at `COUNT_CAP`: more than that match. */
  totalCountIsEstimate?: boolean;
}

export const idParamsSchema = z.object({ id: z.string().uuid('id.invalid') });
export const statusSchema = z.enum(['active', 'inactive']);
export const deletedSchema = envelope(z.object({ id: z.string().uuid() }));
