import { useTranslation } from 'react-i18next';
import { COUNT_CAP } from '@tc/contract/paging';

/** A row count in the UI language: "1,234", or "more than 10,000" (COUNT_CAP) for an estimate. */
export function useCountText() {
  const { t, i18n } = useTranslation('lists');
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  return (count: number, estimate = false) =>
    estimate ? t('moreThan', { number: format.format(COUNT_CAP) }) : format.format(count);
}
