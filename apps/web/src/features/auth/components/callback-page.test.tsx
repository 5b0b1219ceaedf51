import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session';
import { renderAuthPage } from '../../../test/auth-page';
import { loadEnglish } from '../../../test/render';
import { accessToken, signOut } from '../../../test/session';
import CallbackPage from './callback-page';

/**
 * The console's callback after a sign-in posted without script: the code is exchanged with
 * what the server kept in the tc_console_signin cookie (oauth4webapi's part stood in for).
 * The page exchanges a callback address's code once, so each case has an address of its own.
 */
const codeFlow = vi.hoisted(() => ({ finishConsoleSignIn: vi.fn() }));
vi.mock('../../../lib/code-flow', () => codeFlow);

const saved = {
  realm: 'demo',
  verifier: 'verifier-1',
  state: 'state-1',
  nonce: 'nonce-1',
  remember: false,
  stepsPath: '/login-actions/demo/uid-9',
};
const base64url = (text: string) =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function openCallback(query: string) {
  window.history.replaceState(null, '', `/auth/callback?${query}`);
  const replace = vi.fn();
  vi.stubGlobal('location', { ...window.location, replace });
  renderAuthPage(<CallbackPage />, { page: 'callback', url: `/auth/callback?${query}` });
  return replace;
}

describe('console callback page', () => {
  beforeAll(() => loadEnglish([]));
  beforeEach(() => {
    signOut();
    codeFlow.finishConsoleSignIn.mockReset();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'tc_console_signin=; Path=/; Max-Age=0';
  });

  it('exchanges the code, keeps the session and loads the landing page', async () => {
    document.cookie = `tc_console_signin=${base64url(JSON.stringify(saved))}; Path=/`;
    codeFlow.finishConsoleSignIn.mockResolvedValue({
      access_token: accessToken({ superAdmin: false }),
      refresh_token: 'refresh-from-callback',
    });
    const replace = openCallback('code=c-1&state=state-1');
    expect(screen.getByRole('progressbar', { name: 'Signing in...' })).toBeInTheDocument();

    await waitFor(() => expect(replace).toHaveBeenCalledWith('/home'));
    const [signIn, callback] = codeFlow.finishConsoleSignIn.mock.calls[0] as [unknown, URL];
    expect(signIn).toEqual(saved);
    expect(callback.searchParams.get('code')).toBe('c-1');
    // Not remembered: the session ends with the browser; the cookie is gone.
    expect(getSession()?.refreshToken).toBe('refresh-from-callback');
    expect(sessionStorage.getItem('refresh_token')).toBe('refresh-from-callback');
    expect(document.cookie).not.toContain('tc_console_signin=');
  });

  it('says the sign-in expired when no sign-in is in progress in this browser', async () => {
    const replace = openCallback('code=c-2&state=state-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('has expired');
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
    expect(codeFlow.finishConsoleSignIn).not.toHaveBeenCalled();
    expect(replace).not.toHaveBeenCalled();
  });

  it("shows the identity provider's refusal", async () => {
    document.cookie = `tc_console_signin=${base64url(JSON.stringify(saved))}; Path=/`;
    openCallback('error=access_denied&error_description=User+cancelled&state=state-1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Authentication failed: User cancelled',
    );
    expect(codeFlow.finishConsoleSignIn).not.toHaveBeenCalled();
  });
});
