import { describe, expect, it } from 'vitest';
import { formatters } from './format';

describe('dashboard formatters', () => {
  it('formats budgets exactly, with two decimals, in the language', () => {
    expect(formatters('en').budget('1250000.5')).toBe('1,250,000.50');
    expect(formatters('de').budget('1250000.5')).toBe('1.250.000,50');
    // Beyond a double's precision: the decimal string is not rounded through a float.
    expect(formatters('en').budget('12345678901234567.89')).toBe('12,345,678,901,234,567.89');
  });

  it('names countries in the language and keeps a malformed code', () => {
    expect(formatters('en').country('CH')).toBe('Switzerland');
    expect(formatters('de').country('CH')).toBe('Schweiz');
    expect(formatters('fr').country('x1')).toBe('x1');
  });

  it('shows a UTC calendar day as that day', () => {
    expect(formatters('en').day('2026-03-01')).toBe('Mar 1');
  });

  it('says how long ago, then the date', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const { relative } = formatters('en');
    expect(relative('2026-03-10T11:59:50Z', now)).toBe('now');
    expect(relative('2026-03-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relative('2026-03-09T12:00:00Z', now)).toBe('yesterday');
    expect(relative('2026-02-01T12:00:00Z', now)).toMatch(/2026/);
  });
});
