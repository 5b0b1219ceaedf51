/**
 * Numbers, budgets, countries and dates in the interface language, with the
 * platform's Intl formatters: no translation table for country names or month names.
 */
export interface Formatters {
  count: (value: number) => string;
  /** The contract's budgets are exact decimal strings without a currency. */
  budget: (value: string | number) => string;
  country: (code: string) => string;
  day: (isoDate: string) => string;
  dateTime: (iso: string) => string;
  relative: (iso: string, now?: number) => string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function formatters(locale: string): Formatters {
  const count = new Intl.NumberFormat(locale);
  const budget = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const regions = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  // The sign-in days are UTC calendar days (contract): shown as such, not shifted by the zone.
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });

  return {
    count: (value) => count.format(value),
    // A decimal string is formatted exactly (Intl.NumberFormat v3), without a float round trip.
    budget: (value) => budget.format(value as Intl.StringNumericLiteral),
    country: (code) => {
      try {
        return regions.of(code) ?? code;
      } catch {
        return code;
      }
    },
    day: (isoDate) => day.format(new Date(`${isoDate}T00:00:00Z`)),
    dateTime: (iso) => dateTime.format(new Date(iso)),
    // Recent entries read best as "5 minutes ago"; older ones by their date.
    relative: (iso, now = Date.now()) => {
      const elapsed = new Date(iso).getTime() - now;
      const size = Math.abs(elapsed);
      if (size < MINUTE) return relative.format(0, 'second');
      if (size < HOUR) return relative.format(Math.round(elapsed / MINUTE), 'minute');
      if (size < DAY) return relative.format(Math.round(elapsed / HOUR), 'hour');
      if (size < 7 * DAY) return relative.format(Math.round(elapsed / DAY), 'day');
      return dateTime.format(new Date(iso));
    },
  };
}
