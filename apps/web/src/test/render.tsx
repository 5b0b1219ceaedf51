import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, type ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import i18n from '../lib/i18n';

/** English with the given screen namespaces loaded, as a route's chunk would load them. */
export async function loadEnglish(namespaces: string[]) {
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces(['lists', 'problems', ...namespaces]);
}

let currentLocation = { pathname: '', search: '' };

/** Reports where the router is, so tests can assert on the address a screen keeps. */
function LocationProbe() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    currentLocation = { pathname, search };
  }, [pathname, search]);
  return null;
}

/** The address's query as the screen last left it, decoded (`{ sort: 'name.desc' }`). */
export const currentSearchParams = () =>
  Object.fromEntries(new URLSearchParams(currentLocation.search));

/**
 * Renders with the app's providers: a fresh query cache (no retries, so a failure shows at
 * once) and a router at `url`. Returns a user-event instance that does not wait between keys.
 */
export function renderWithProviders(ui: ReactNode, { url = '/' }: { url?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, client, user: userEvent.setup({ delay: null }) };
}
