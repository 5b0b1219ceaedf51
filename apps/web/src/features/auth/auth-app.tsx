import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ComponentType,
} from 'react';
import type { AuthPageName, AuthPageState } from '@tc/contract/auth-page';
import { AuthPageContext, type AuthPageContextValue } from './auth-page-context';
import { authPageAt, loadAuthPage, loadedAuthPage } from './auth-pages';

/** Where the page is: the server passes the state's address, the browser its own. */
export interface AuthLocation {
  pathname: string;
  search: string;
}

interface View {
  page: AuthPageName;
  Page: ComponentType;
  state: AuthPageState;
  search: URLSearchParams;
}

/** What `navigate` keeps in the history entry, so going back shows what was handed over. */
interface HistoryEntry {
  authNavigationState?: unknown;
}

const historyNavigationState = (): unknown =>
  (window.history.state as HistoryEntry | null)?.authNavigationState;

const onPopState = (listener: () => void) => {
  window.addEventListener('popstate', listener);
  return () => window.removeEventListener('popstate', listener);
};

/** The address's path and query as the document shows them. */
export function locationOf(url: string): AuthLocation {
  const parsed = new URL(url, 'http://localhost');
  return { pathname: parsed.pathname, search: parsed.search };
}

/**
 * The sign-in pages as one small application: the page the server rendered (its chunk is
 * loaded before hydration: `loadAuthPage(state.page)`), and the others shown without a page
 * load when a page navigates to one. What the server rendered from a form posted without
 * script (values, error, the pending step, a notice) belongs to that page only: a page moved
 * to starts without it.
 */
export function AuthApp({ state, location }: { state: AuthPageState; location: AuthLocation }) {
  const [view, setView] = useState<View>(() => {
    const Page = loadedAuthPage(state.page);
    if (!Page) throw new Error(`The sign-in page ${state.page} is not loaded.`);
    return {
      page: state.page,
      Page,
      state,
      search: new URLSearchParams(location.search),
    };
  });

  /** Shows the page of the address the browser is at now (after navigate or popstate). */
  const show = useCallback(async (page: AuthPageName) => {
    const Page = await loadAuthPage(page);
    const url = `${window.location.pathname}${window.location.search}`;
    setView((current) => ({
      page,
      Page,
      state: {
        ...current.state,
        page,
        url,
        values: undefined,
        error: undefined,
        pending: undefined,
        notice: undefined,
      },
      search: new URLSearchParams(window.location.search),
    }));
  }, []);

  const navigate = useCallback<AuthPageContextValue['navigate']>(
    (to, options = {}) => {
      const url = new URL(to, window.location.href);
      const page = url.origin === window.location.origin ? authPageAt(url.pathname) : null;
      if (!page) {
        window.location.assign(url.href);
        return;
      }
      // The chunk first, so the address changes when the page does; a chunk that cannot be
      // loaded leaves it to the server to render the page.
      loadAuthPage(page).then(
        () => {
          const entry: HistoryEntry = { authNavigationState: options.state };
          const address = `${url.pathname}${url.search}${url.hash}`;
          if (options.replace) window.history.replaceState(entry, '', address);
          else window.history.pushState(entry, '', address);
          void show(page);
        },
        () => window.location.assign(url.href),
      );
    },
    [show],
  );

  // What was handed over lives in the history entry, so it is there again after going back or
  // a reload; the server could not render it, so hydration starts without it.
  const navigationState = useSyncExternalStore(onPopState, historyNavigationState, () => undefined);

  useEffect(
    () =>
      onPopState(() => {
        const page = authPageAt(window.location.pathname);
        if (page) show(page).catch(() => window.location.reload());
        else window.location.reload();
      }),
    [show],
  );

  // Marks the page as run by its script (until then its forms post to the server): tests
  // and tools that need the scripted page wait for it.
  useEffect(() => {
    document.documentElement.dataset['scripted'] = 'true';
  }, []);

  // The server wrote the first page's title; a page moved to gets its own the same way.
  useEffect(() => {
    if (view.state === state) return;
    const heading = document.querySelector('h1')?.textContent ?? '';
    document.title = authPageTitle(heading, view.state);
  }, [view.state, state]);

  const context = useMemo<AuthPageContextValue>(
    () => ({
      state: view.state,
      search: view.search,
      navigationState,
      navigate,
    }),
    [view.state, view.search, navigationState, navigate],
  );
  const { Page } = view;
  return (
    <AuthPageContext.Provider value={context}>
      <Page key={view.page} />
    </AuthPageContext.Provider>
  );
}

/** A page's title: its heading and the tenant's name, e.g. "Sign in · Demo". */
export function authPageTitle(heading: string, state: AuthPageState): string {
  return [heading.trim(), state.tenant?.name].filter(Boolean).join(' · ');
}
