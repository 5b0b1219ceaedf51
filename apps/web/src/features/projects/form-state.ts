import { COUNTRY_CODES } from '@tc/contract/countries';
import {
  BUDGET_PATTERN,
  projectCreateSchema,
  projectUpdateSchema,
  type Project,
} from '@tc/contract/projects';
import type { DefaultValues } from 'react-hook-form';
import { z } from 'zod';

/**
 * Between the project as the API has it and the form's shape (Keycloak admin-ui's
 * form-state.ts): selects hold '' for "nothing chosen", the budget is the text typed.
 */
export type ProjectForm = z.input<typeof projectUpdateSchema>;

export function projectDefaults(row?: Project): DefaultValues<ProjectForm> {
  return {
    ...(row ? { id: row.id } : {}),
    name: row?.name ?? '',
    short: row?.short ?? '',
    description: row?.description ?? '',
    ownerId: row?.ownerId ?? '',
    projectNumber: row?.projectNumber ?? '',
    budget: row?.budget ?? '',
    country: row?.country ?? '',
    city: row?.city ?? '',
    address: row?.address ?? '',
    postalCode: row?.postalCode ?? '',
    peopleIds: row?.peopleIds ?? [],
  };
}

/** True where the UI language writes 1,5 for one and a half (de, fr, it). */
export function usesDecimalComma(language: string): boolean {
  const parts = new Intl.NumberFormat(language).formatToParts(1.5);
  return parts.find((part) => part.type === 'decimal')?.value === ',';
}

/**
 * The typed budget as the contract's exact decimal: where the language writes a decimal
 * comma, "1250000,50" means "1250000.50". Anything else is left for the contract to judge.
 */
export function normalizeBudget(text: string, decimalComma: boolean): string {
  const trimmed = text.trim();
  return decimalComma && /^\d+,\d{1,2}$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed;
}

/**
 * The amount in the UI language ("1.250.000,50" in German), or undefined while the text is
 * not an amount. Intl formats the decimal string itself, so no digit is lost to a float.
 */
export function formatBudget(text: string, language: string): string | undefined {
  const normalized = normalizeBudget(text, usesDecimalComma(language));
  if (!BUDGET_PATTERN.test(normalized)) return undefined;
  return new Intl.NumberFormat(language, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(normalized as `${number}`);
}

/**
 * The contract's schema (create for add, update otherwise) behind the mapping from the form:
 * no owner is null, an empty budget takes the contract's default. Validation stays the
 * contract's; only the form's representation of "nothing" is translated.
 */
export function projectFormSchema(mode: 'add' | 'edit', language: string) {
  const decimalComma = usesDecimalComma(language);
  const contract = mode === 'add' ? projectCreateSchema : projectUpdateSchema;
  return z.preprocess((form: ProjectForm) => {
    const budget =
      typeof form.budget === 'string' ? normalizeBudget(form.budget, decimalComma) : form.budget;
    return { ...form, ownerId: form.ownerId || null, budget: budget === '' ? undefined : budget };
  }, contract);
}

/** Every country of the contract, named in the UI language and sorted by that name. */
export function countryOptions(language: string) {
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(language);
  return COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort(
    (a, b) => collator.compare(a.label, b.label),
  );
}
