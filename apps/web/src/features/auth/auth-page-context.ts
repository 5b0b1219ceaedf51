import { createContext, useContext } from 'react';
import type { AuthPageState } from '@tc/contract/auth-page';

/**
 * What a sign-in page starts from and how it moves to another one. The server renders the
 * page from the same state the script then hydrates with (the page's boot JSON), so a page
 * reads its tenant, language, the values and error of a form posted without script, and the
 * hosted request's details from here — never from a request of its own on first render.
 */
export interface AuthPageContextValue {
  state: AuthPageState;
  /** The address's query (the server rendered the page for the same one). */
  search: URLSearchParams;
  /** State handed over by `navigate` from the page before (e.g. the e-mail to check). */
  navigationState: unknown;
  /** Shows another sign-in page without a page load; a console address loads the console. */
  navigate: (to: string, options?: { state?: unknown; replace?: boolean }) => void;
}

export const AuthPageContext = createContext<AuthPageContextValue | null>(null);

export function useAuthPage(): AuthPageContextValue {
  const value = useContext(AuthPageContext);
  if (!value) throw new Error('A sign-in page is rendered outside the sign-in pages.');
  return value;
}
