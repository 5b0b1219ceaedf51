import { useTranslation } from 'react-i18next';

/**
 * The server counts at most this many matches; beyond, it answers this number flagged
 * `totalCountIsEstimate`, and the console says "more than" it instead of a count.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/** A row count in the UI language: "1,234", or "more than 10,000" for an estimate. */
export function useCountText() {
  const { t, i18n } = useTranslation('lists');
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  return (count: number, estimate = false) =>
    estimate ? t('moreThan', { number: format.format(EXACT_COUNT_LIMIT) }) : format.format(count);
}
