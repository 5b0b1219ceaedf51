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
    colorSchemes: {
      light: true,
      // The dark scheme's red (#f44336) is too light under white text (3.7:1, e.g. the Delete
      // buttons); dark text on it reaches 5.3:1, as MUI's dark scheme does for its other colours.
      dark: { palette: { error: { main: '#f44336', contrastText: 'rgba(0, 0, 0, 0.87)' } } },
    },
    palette: { primary: { main: '#1f4fd1' } },
    shape: { borderRadius: 8 },
  });
  return theme;
}
