import { z } from 'zod';
import { isCountryCode } from './countries';
import { pageRequestSchema, pageResponseSchema } from './paging';
import { envelope } from './problem';
import { multilineText, singleLineText } from './text';

/** numeric(16,2): at most 14 digits before the point and 2 after, never negative. */
export const BUDGET_PATTERN = /^\d{1,14}(\.\d{1,2})?$/;
const BUDGET_MESSAGE = 'project.budget_format';
const NEGATIVE_MESSAGE = 'project.budget_negative';

/**
 * A JSON number is a binary float, so only numbers whose shortest decimal form has at most 15
 * significant digits are taken: those are exactly the decimal the sender wrote. Larger amounts
 * must be sent as a string.
 */
export function exactBudget(value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const text = String(value);
  if (!BUDGET_PATTERN.test(text)) return undefined;
  const digits = text.replace('.', '').replace(/^0+/, '');
  return digits.length <= 15 ? text : undefined;
}

function budgetProblem(value: string | number): string | undefined {
  if (typeof value === 'number') {
    if (value < 0) return NEGATIVE_MESSAGE;
    return exactBudget(value) === undefined ? 'project.budget_as_string' : undefined;
  }
  if (value.startsWith('-')) return NEGATIVE_MESSAGE;
  return BUDGET_PATTERN.test(value) ? undefined : BUDGET_MESSAGE;
}

/** The project budget: an exact decimal string ("1250000.50"), or a number that converts exactly. */
export const budgetSchema = z
  .union([singleLineText().trim(), z.number()], { error: BUDGET_MESSAGE })
  .superRefine((value, context) => {
    const message = budgetProblem(value);
    if (message) context.addIssue({ code: 'custom', message });
  })
  .transform((value) => (typeof value === 'number' ? exactBudget(value)! : value));

/** An optional text field: trimmed, bounded; empty or absent is stored as null. */
const optionalText = (max: number, text = singleLineText) =>
  text()
    .trim()
    .max(max, 'text.too_long')
    .nullish()
    .transform((text) => text || null);

const countrySchema = singleLineText()
  .trim()
  .toUpperCase()
  .refine((code) => code === '' || isCountryCode(code), 'project.country_invalid');

export const projectCreateSchema = z
  .object({
    name: singleLineText().trim().min(1, 'name.required').max(200, 'text.too_long'),
    short: optionalText(20),
    description: optionalText(2000, multilineText),
    ownerId: z
      .uuid('project.owner_not_in_tenant')
      .nullish()
      .transform((id) => id ?? null),
    projectNumber: singleLineText()
      .trim()
      .min(1, 'project.number_required')
      .max(50, 'text.too_long'),
    budget: budgetSchema.default('0'),
    country: countrySchema.nullish().transform((code) => code || null),
    city: optionalText(100),
    address: optionalText(300),
    postalCode: optionalText(20),
    peopleIds: z
      .array(z.uuid('project.people_not_in_tenant'))
      .max(500, 'project.people_too_many')
      .default([]),
  })
  .meta({ id: 'ProjectCreate' });
export type ProjectCreate = z.output<typeof projectCreateSchema>;

/** Update replaces every field of the form (PUT); people are replaced as a set. */
export const projectUpdateSchema = projectCreateSchema
  .extend({ id: z.uuid('id.invalid') })
  .meta({ id: 'ProjectUpdate' });
export type ProjectUpdate = z.output<typeof projectUpdateSchema>;

export const projectPersonSchema = z.object({ id: z.uuid(), name: z.string() });

export const projectSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    short: z.string().nullable(),
    description: z.string().nullable(),
    ownerId: z.uuid().nullable(),
    /** The owner's full name. */
    owner: z.string().nullable(),
    projectNumber: z.string(),
    /** Exact decimal as a string, e.g. "1250000.50". */
    budget: z.string(),
    country: z.string().nullable(),
    city: z.string().nullable(),
    address: z.string().nullable(),
    postalCode: z.string().nullable(),
    peopleIds: z.array(z.uuid()),
    people: z.array(projectPersonSchema),
    logoUrl: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof projectSchema>;

export const PROJECT_SORT_FIELDS = [
  'name',
  'projectNumber',
  'budget',
  'country',
  'owner',
  'createdAt',
] as const;

export const projectPageRequestSchema = pageRequestSchema(
  PROJECT_SORT_FIELDS,
  {
    ownerId: z.uuid('id.invalid').optional(),
    country: singleLineText().trim().toUpperCase().length(2, 'project.country_code').optional(),
  },
  'name',
);
export type ProjectPageRequest = z.output<typeof projectPageRequestSchema>;

export const projectPageResponseSchema = pageResponseSchema(projectSchema);
export const projectResponseSchema = envelope(projectSchema);
