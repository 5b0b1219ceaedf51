import { COUNTRY_CODES } from '@tc/contract/countries';
import { describe, expect, it } from 'vitest';
import { countryOptions, formatBudget, projectFormSchema } from './form-state';

const form = {
  name: 'Bridge',
  short: '',
  description: '',
  ownerId: '',
  projectNumber: 'P-1',
  budget: '',
  country: '',
  city: '',
  address: '',
  postalCode: '',
  peopleIds: [],
};

describe('project form state', () => {
  it('formats the exact decimal in the UI language, without float rounding', () => {
    expect(formatBudget('1250000.50', 'en')).toBe('1,250,000.50');
    expect(formatBudget('1250000.50', 'de')).toBe('1.250.000,50');
    expect(formatBudget('1250000,5', 'de')).toBe('1.250.000,50');
    expect(formatBudget('99999999999999.99', 'en')).toBe('99,999,999,999,999.99');
    expect(formatBudget('12abc', 'en')).toBeUndefined();
    // In English a comma is not a decimal separator.
    expect(formatBudget('1250000,50', 'en')).toBeUndefined();
  });

  it('maps the empty selects and budget to the contract: no owner, default budget', () => {
    const parsed = projectFormSchema('add', 'en').safeParse(form);
    expect(parsed.success && parsed.data).toMatchObject({
      ownerId: null,
      budget: '0',
      country: null,
      short: null,
    });
  });

  it('takes a German decimal comma and reports a bad budget on its field', () => {
    const schema = projectFormSchema('add', 'de');
    const parsed = schema.safeParse({ ...form, budget: '1250000,50', country: 'ch' });
    expect(parsed.success && parsed.data).toMatchObject({ budget: '1250000.50', country: 'CH' });
    const bad = schema.safeParse({ ...form, budget: '12,345,6' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['budget']);
  });

  it('names every contract country in the UI language, sorted by that name', () => {
    const german = countryOptions('de');
    expect(german).toHaveLength(COUNTRY_CODES.length);
    expect(german.find((c) => c.value === 'DE')?.label).toBe('Deutschland');
    const labels = german.map((c) => c.label);
    expect(labels).toEqual([...labels].sort(new Intl.Collator('de').compare));
  });
});
