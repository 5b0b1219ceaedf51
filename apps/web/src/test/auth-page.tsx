import type { AuthPageState } from '@tc/contract/auth-page';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { demoTenant } from './session';
import { AuthPageContext, type AuthPageContextValue } from '../features/auth/auth-page-context';

/** A page's state as the server would render it: the demo tenant's sign-in in English. */
export function pageState(state: Partial<AuthPageState> = {}): AuthPageState {
  return { page: 'signIn', language: 'en', tenant: demoTenant, url: '/login', ...state };
}

/** The context a sign-in page reads, with `navigate` recorded. */
export function pageContext(
  state: Partial<AuthPageState> = {},
  { search = '', navigationState = null }: { search?: string; navigationState?: unknown } = {},
) {
  const value: AuthPageContextValue = {
    state: pageState(state),
    search: new URLSearchParams(search),
    navigationState,
    navigate: vi.fn(),
  };
  return value;
}

/**
 * Renders a sign-in page as the sign-in pages' app does: inside the page context, from a
 * state. Returns the context (its `navigate` a mock) and a user-event instance.
 */
export function renderAuthPage(
  ui: ReactNode,
  state: Partial<AuthPageState> = {},
  options: { search?: string; navigationState?: unknown } = {},
) {
  const context = pageContext(state, options);
  const view = render(<AuthPageContext.Provider value={context}>{ui}</AuthPageContext.Provider>);
  return { ...view, context, user: userEvent.setup({ delay: null }) };
}
