import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A date and time in the interface language ("26 Nov 2026, 14:05"), with the platform's
 * formatter: month names and order come from Intl, not from a translation table.
 */
export function useDateTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    return (iso: string) => format.format(new Date(iso));
  }, [language]);
}
