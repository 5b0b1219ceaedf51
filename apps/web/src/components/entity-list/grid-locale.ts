import { deDE, frFR, itIT } from '@mui/x-data-grid/locales';

/** The grid's own texts (pagination, sorting, "No rows") in the UI language. */
export const gridLocaleTexts = {
  de: deDE.components.MuiDataGrid.defaultProps.localeText,
  fr: frFR.components.MuiDataGrid.defaultProps.localeText,
  it: itIT.components.MuiDataGrid.defaultProps.localeText,
} as const;

export function gridLocaleText(language: string | undefined) {
  return gridLocaleTexts[language as keyof typeof gridLocaleTexts];
}
