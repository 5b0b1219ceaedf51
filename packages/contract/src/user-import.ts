import { z } from 'zod';
import { envelope } from './problem';
import { pageRequestSchema, pageResponseSchema } from './paging';

/**
 * Importing users from a CSV file (docs/user-import.md): the file is uploaded raw into a
 * staging job, its columns are mapped to the user's fields, every row is checked (the
 * preview), then the valid ones are created in batches.
 */

/** The limits of an uploaded file; each refusal names the one that was passed. */
export const USER_IMPORT_LIMITS = {
  /** Bytes of the whole file (the route's body limit). */
  maxBytes: 50 * 1024 * 1024,
  /** Data rows after the header. */
  maxRows: 200_000,
  /** Columns of the header and of any row. */
  maxColumns: 50,
  /** Characters of one record (line), so a single huge line is refused while it is read. */
  maxRecordChars: 64 * 1024,
} as const;

/** The user fields a column can be mapped to; status is optional (active when not mapped). */
export const USER_IMPORT_FIELDS = ['firstName', 'lastName', 'email', 'role', 'status'] as const;
export type UserImportField = (typeof USER_IMPORT_FIELDS)[number];
export const USER_IMPORT_REQUIRED_FIELDS = ['firstName', 'lastName', 'email', 'role'] as const;

const columnIndex = z
  .number('user_import.column_invalid')
  .int('user_import.column_invalid')
  .min(0, 'user_import.column_invalid')
  .max(USER_IMPORT_LIMITS.maxColumns - 1, 'user_import.column_invalid')
  .nullable();

/** Which column (0-based index of the header) gives each field; null: not in the file. */
export const userImportMappingSchema = z
  .object({
    firstName: columnIndex,
    lastName: columnIndex,
    email: columnIndex,
    role: columnIndex,
    status: columnIndex.default(null),
  })
  .strict()
  .meta({ id: 'UserImportMapping' });
export type UserImportMapping = z.infer<typeof userImportMappingSchema>;

export const userImportMappingRequestSchema = z
  .object({
    mapping: userImportMappingSchema,
    /** Whether each created user gets an invitation mail (through the outbox). */
    sendInvitations: z.boolean('field.invalid').default(false),
  })
  .strict()
  .meta({ id: 'UserImportMappingRequest' });
export type UserImportMappingRequest = z.input<typeof userImportMappingRequestSchema>;

/**
 * `uploaded`: the columns are not mapped yet; `checked`: mapped and every row checked (the
 * preview); `applying`: creation started and is not finished (applying again continues it);
 * `done`: every row has its outcome.
 */
export const USER_IMPORT_STATES = ['uploaded', 'checked', 'applying', 'done'] as const;
export type UserImportState = (typeof USER_IMPORT_STATES)[number];

const suggestedMappingSchema = z.object({
  firstName: z.number().int().nullable(),
  lastName: z.number().int().nullable(),
  email: z.number().int().nullable(),
  role: z.number().int().nullable(),
  status: z.number().int().nullable(),
});

export const userImportJobSchema = z
  .object({
    id: z.uuid(),
    state: z.enum(USER_IMPORT_STATES),
    /** The header's column names, in the file's order. */
    columns: z.array(z.string()),
    /** Columns whose names match a field's in English, German, French or Italian. */
    suggestedMapping: suggestedMappingSchema,
    mapping: suggestedMappingSchema.nullable(),
    sendInvitations: z.boolean(),
    rowCount: z.number().int(),
    /** Of the checked rows: to be created, refused, and already a user of the tenant. */
    totals: z.object({
      valid: z.number().int(),
      withErrors: z.number().int(),
      existing: z.number().int(),
    }),
    /** Of the applied rows. */
    progress: z.object({
      done: z.number().int(),
      created: z.number().int(),
      skipped: z.number().int(),
      failed: z.number().int(),
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'UserImportJob' });
export type UserImportJob = z.infer<typeof userImportJobSchema>;
export const userImportJobResponseSchema = envelope(userImportJobSchema);

/** A problem of one row, translated by the console like any problem code. */
export const userImportRowProblemSchema = z.object({
  field: z.string(),
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type UserImportRowProblem = z.infer<typeof userImportRowProblemSchema>;

/**
 * Before apply: `valid`, `error` or `existing` (a user with this e-mail address exists).
 * After: `created`, `skipped` (already exists) or `failed` (with its problems).
 */
export const USER_IMPORT_ROW_STATUSES = [
  'valid',
  'error',
  'existing',
  'created',
  'skipped',
  'failed',
] as const;
export type UserImportRowStatus = (typeof USER_IMPORT_ROW_STATUSES)[number];

export const userImportRowSchema = z
  .object({
    /** The row's number in the file, the header being line 1. */
    line: z.number().int(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    role: z.string().nullable(),
    status: z.enum(USER_IMPORT_ROW_STATUSES),
    problems: z.array(userImportRowProblemSchema),
  })
  .meta({ id: 'UserImportRow' });
export type UserImportRow = z.infer<typeof userImportRowSchema>;

export const userImportRowPageRequestSchema = pageRequestSchema(['line'], {
  status: z.enum(USER_IMPORT_ROW_STATUSES, 'field.invalid').optional(),
}).meta({ id: 'UserImportRowPageRequest' });
export type UserImportRowPageRequest = z.infer<typeof userImportRowPageRequestSchema>;

export const userImportRowPageResponseSchema = pageResponseSchema(userImportRowSchema).meta({
  id: 'UserImportRowPage',
});
