import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { SessionEndRedirect } from './guards';
import { AppRoutes } from './router';
import { TenantGate } from './tenant-gate';
import { theme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
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
