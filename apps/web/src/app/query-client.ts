import { QueryClient } from '@tanstack/react-query';

/** The console's one query cache; main.tsx starts the tenant check in it before the first render. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});
