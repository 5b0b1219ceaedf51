import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { queryClient } from './query-client';
import { router } from './router';
import { TenantGate } from './tenant-gate';
import { appTheme } from './theme';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={appTheme()}>
        <CssBaseline enableColorScheme />
        <TenantGate>
          <RouterProvider router={router} />
        </TenantGate>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
