import { createTheme } from '@mui/material/styles';

/**
 * Light and dark schemes (spec §9); MUI keeps the choice in localStorage and follows
 * prefers-color-scheme on a first visit. Breakpoints are MUI's defaults: 0, 600, 900, 1200, 1536.
 */
export const theme = createTheme({
  colorSchemes: { light: true, dark: true },
  palette: { primary: { main: '#1f4fd1' } },
  shape: { borderRadius: 8 },
});
