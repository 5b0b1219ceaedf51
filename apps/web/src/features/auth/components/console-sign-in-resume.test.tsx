import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session';
import { renderAuthPage } from '../../../test/auth-page';
import { loadEnglish } from '../../../test/render';
import { server } from '../../../test/server';
import { accessToken, signOut } from '../../../test/session';
import SignInPage from './sign-in-page';

/**
 * A console sign-in posted without script that stopped at its second step: the server kept the
 * authorization request in the tc_console_signin cookie, and the page, opened at the step,
 * continues that request once its script runs and exchanges its code (oauth4webapi's part is
 * stood in for, as in the other console sign-in tests).
 */
const codeFlow = vi.hoisted(() => ({
  beginAuthorization: vi.fn(),
  finishAuthorization: vi.fn(),
  resumeAuthorization: vi.fn((saved: Record<string, unknown>) => ({ ...saved, resumed: true })),
}));
vi.mock('../../../lib/code-flow', () => codeFlow);

const STEPS = '/login-actions/demo/uid-9';
const RESUME = 'http://localhost/realms/demo/protocol/openid-connect/auth/uid-9';
const saved = {
  realm: 'demo',
  verifier: 'verifier-1',
  state: 'state-1',
  nonce: 'nonce-1',
  remember: true,
  stepsPath: STEPS,
};
const base64url = (text: string) =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('console sign-in: a second step reached without script', { timeout: 30_000 }, () => {
  const assign = vi.fn();
  beforeAll(() => loadEnglish([]));
  beforeEach(() => {
    signOut();
    assign.mockClear();
    codeFlow.finishAuthorization.mockReset();
    vi.stubGlobal('location', { ...window.location, assign });
    document.cookie = `tc_console_signin=${base64url(JSON.stringify(saved))}; Path=/`;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'tc_console_signin=; Path=/; Max-Age=0';
  });

  it("continues the server's authorization request with the code and signs in", async () => {
    server.use(
      http.post(`${STEPS}/second-factor`, () =>
        HttpResponse.json({ next: 'done', redirectTo: RESUME }),
      ),
    );
    codeFlow.finishAuthorization.mockResolvedValue({
      access_token: accessToken({ superAdmin: true }),
      refresh_token: 'refresh-after-code',
    });
    const { user } = renderAuthPage(<SignInPage />, {
      url: '/login',
      pending: { stepsPath: STEPS, step: { next: 'second-factor', methods: ['totp'] } },
    });
    const field = screen.getByLabelText('Authentication code');
    expect(field.closest('form')).toHaveAttribute('action', STEPS);

    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/dashboard/tenants'));
    expect(codeFlow.resumeAuthorization).toHaveBeenCalledWith(saved);
    expect(codeFlow.finishAuthorization).toHaveBeenCalledWith({ ...saved, resumed: true }, RESUME);
    expect(codeFlow.beginAuthorization).not.toHaveBeenCalled();
    // Remember me, as posted: the session outlives the browser; the cookie is gone.
    expect(getSession()?.refreshToken).toBe('refresh-after-code');
    expect(localStorage.getItem('refresh_token')).toBe('refresh-after-code');
    expect(document.cookie).not.toContain('tc_console_signin=');
  });
});
