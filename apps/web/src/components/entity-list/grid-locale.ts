import type { LabelDisplayedRowsArgs } from '@mui/material/TablePagination';
import type { GridLocaleText } from '@mui/x-data-grid';
import { deDE, frFR, itIT } from '@mui/x-data-grid/locales';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNT_CAP } from '@tc/contract/paging';

/** The grid's own texts (pagination, sorting, "No rows") in the UI language. */
export const gridLocaleTexts = {
  de: deDE.components.MuiDataGrid.defaultProps.localeText,
  fr: frFR.components.MuiDataGrid.defaultProps.localeText,
  it: itIT.components.MuiDataGrid.defaultProps.localeText,
} as const;

export function gridLocaleText(language: string | undefined) {
  return gridLocaleTexts[language as keyof typeof gridLocaleTexts];
}

/**
 * "1–10 of more than 10,000" where the server estimated the total (a search matching more
 * rows than it counts exactly); otherwise nothing, and the grid's own exact text stands.
 */
export function useDisplayedRows(estimated: boolean) {
  const { t, i18n } = useTranslation('lists');
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => {
    if (!estimated) return { grid: undefined, table: undefined };
    const format = new Intl.NumberFormat(language);
    const text = ({ from, to }: Pick<LabelDisplayedRowsArgs, 'from' | 'to'>) =>
      t('displayedRowsEstimated', {
        from: format.format(from),
        to: format.format(to),
        number: format.format(COUNT_CAP),
      });
    const grid: Partial<GridLocaleText> = { paginationDisplayedRows: text };
    return { grid, table: text };
  }, [estimated, language, t]);
}
