import { createTheme, type Theme } from '@mui/material/styles';

let theme: Theme | undefined;

/**
 * Light and dark schemes; MUI keeps the choice in localStorage and follows
 * prefers-color-scheme on a first visit. Breakpoints are MUI's defaults: 0, 600, 900, 1200, 1536.
 * Made on first use, in the first (time-sliced) render rather than while the scripts are
 * evaluated: building both schemes is one of the costlier steps of start-up.
 */
export function appTheme(): Theme {
  theme ??= createTheme({
    colorSchemes: { light: true, dark: true },
    palette: { primary: { main: '#1f4fd1' } },
    shape: { borderRadius: 8 },
  });
  return theme;
}
