import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { SessionEndRedirect } from './guards';
import { queryClient } from './query-client';
import { AppRoutes } from './router';
import { TenantGate } from './tenant-gate';
import { appTheme } from './theme';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={appTheme()}>
        <CssBaseline enableColorScheme />
        <BrowserRouter>
          <SessionEndRedirect />
          <TenantGate>
            <AppRoutes />
          </TenantGate>
        </BrowserRouter>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
