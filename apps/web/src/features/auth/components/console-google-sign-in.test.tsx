import type { TenantInfo } from '@tc/contract/identity';
import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session';
import { loadEnglish } from '../../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../../test/server';
import { accessToken, demoTenant, signOut } from '../../../test/session';
import { renderAuthPage } from '../../../test/auth-page';
import SignInPage from './sign-in-page';
import SignUpPage from './sign-up-page';

/**
 * The console's own "Sign in with Google": the credential goes to the Google step of the
 * console's authorization request, not to POST /auth/google, so an account with a second
 * factor is asked for it after Google, as after the password. The steps are msw's; the
 * protocol around them (PKCE and the code exchange, by oauth4webapi, whose WebCrypto answers
 * jsdom's typed arrays do not recognise) is stood in for: the e2e tests drive it for real.
 */
const codeFlow = vi.hoisted(() => ({
  beginAuthorization: vi.fn(),
  finishAuthorization: vi.fn(),
}));
vi.mock('../../../lib/code-flow', () => codeFlow);

const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
const NONCE = 'nonce-of-this-sign-in';
const STEPS = '/login-actions/demo/uid-7';
const RESUME = 'http://localhost/realms/demo/protocol/openid-connect/auth/uid-7';
const tenant: TenantInfo = {
  ...demoTenant,
  googleEnabled: true,
  googleClientId: 'demo-client.apps.example',
};
const pending = { realm: 'demo', as: {}, verifier: 'v', state: 's', nonce: 'n', stepsPath: STEPS };

const initialize =
  vi.fn<(options: { nonce?: string; callback: (r: { credential: string }) => void }) => void>();
const renderButton = vi.fn<(parent: HTMLElement, options: Record<string, unknown>) => void>();

/** The console's authorization request, its steps' page, and the tokens its code gives. */
function identityProvider() {
  codeFlow.beginAuthorization.mockResolvedValue(pending);
  codeFlow.finishAuthorization.mockResolvedValue({
    access_token: accessToken({ permissions: ['users:read'] }),
    refresh_token: 'refresh-after-google',
  });
}

/** Lets Google's script "load" (jsdom fetches none) and hands the screen Google's ID token. */
async function signInWithGoogle(credential: string) {
  const script = await waitFor(() => {
    const found = document.head.querySelector(`script[src="${GOOGLE_SCRIPT}"]`);
    expect(found).not.toBeNull();
    return found!;
  });
  script.dispatchEvent(new Event('load'));
  await waitFor(() => expect(initialize).toHaveBeenCalled());
  act(() => initialize.mock.calls.at(-1)![0].callback({ credential }));
}

/** The sign-in or sign-up page as the server renders it for the tenant's address. */
function renderAt(url: '/' | '/signup') {
  return url === '/'
    ? renderAuthPage(<SignInPage />, { tenant })
    : renderAuthPage(<SignUpPage />, { page: 'signUp', url, tenant });
}

// Several screens one after another: seconds each on a busy two-core runner.
describe(
  "the console's Google sign-in goes through the sign-in's steps",
  { timeout: 30_000 },
  () => {
    const assign = vi.fn();
    beforeAll(() => loadEnglish([]));
    beforeEach(() => {
      signOut();
      assign.mockClear();
      vi.stubGlobal('location', { ...window.location, assign });
      initialize.mockClear();
      renderButton.mockClear();
      codeFlow.beginAuthorization.mockReset();
      codeFlow.finishAuthorization.mockReset();
      window.google = { accounts: { id: { initialize, renderButton } } };
      // The nonce Google is to put in its ID token, which the server gives this sign-in.
      server.use(
        http.post('/api/v1.0/auth/google/nonce', () => HttpResponse.json({ nonce: NONCE })),
      );
    });
    afterEach(() => {
      vi.unstubAllGlobals();
      delete window.google;
    });

    it("asks the authenticator app's code after Google, then signs in with it", async () => {
      identityProvider();
      server.use(
        http.post(`${STEPS}/google`, () =>
          HttpResponse.json({ next: 'second-factor', methods: ['totp', 'recovery-code'] }),
        ),
        http.post(`${STEPS}/second-factor`, () =>
          HttpResponse.json({ next: 'done', redirectTo: RESUME }),
        ),
      );
      const { user } = renderAt('/');
      await signInWithGoogle('google-id-token');

      expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeVisible();
      expect(await bodiesSentTo(`${STEPS}/google`)).toEqual([{ credential: 'google-id-token' }]);
      expect(getSession()).toBeNull();
      await user.type(screen.getByLabelText(/^Authentication code/), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify' }));

      // The console, loaded anew, restores the session from storage.
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/home'));
      expect(getSession()).toMatchObject({
        refreshToken: 'refresh-after-google',
        permissions: ['users:read'],
      });
      // Google offers no "remember me": the session ends with the browser.
      expect(localStorage.getItem('refresh_token')).toBeNull();
      expect(sessionStorage.getItem('refresh_token')).toBe('refresh-after-google');
      // The console's own authorization request, in the tenant's realm, and its code.
      expect(codeFlow.beginAuthorization).toHaveBeenCalledWith({ realm: 'demo', language: 'en' });
      expect(codeFlow.finishAuthorization).toHaveBeenCalledWith(pending, RESUME);
      expect(seenRequests().some((entry) => entry.path === '/api/v1.0/auth/google')).toBe(false);
    });

    it('signs in at once an account without a second factor', async () => {
      identityProvider();
      server.use(
        http.post(`${STEPS}/google`, () => HttpResponse.json({ next: 'done', redirectTo: RESUME })),
      );
      renderAt('/');
      await signInWithGoogle('google-id-token');
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/home'));
      expect(getSession()?.refreshToken).toBe('refresh-after-google');
    });

    it('takes a Google sign-up to the enrolment the tenant requires', async () => {
      identityProvider();
      server.use(http.post(`${STEPS}/google`, () => HttpResponse.json({ next: 'enrol' })));
      server.use(
        http.post(`${STEPS}/enrol/totp`, () =>
          HttpResponse.json({
            secret: 'JBSWY3DPEHPK3PXP',
            otpauthUri: 'otpauth://totp/demo:new%40demo.localhost?secret=JBSWY3DPEHPK3PXP',
          }),
        ),
      );
      renderAt('/signup');
      await signInWithGoogle('google-id-token');
      expect(
        await screen.findByRole('heading', { name: 'Set up two-step verification' }),
      ).toBeVisible();
      expect(await bodiesSentTo(`${STEPS}/google`)).toEqual([{ credential: 'google-id-token' }]);
    });

    it("hands Google the nonce the server gave this browser's sign-in, a new one after each use", async () => {
      identityProvider();
      server.use(
        http.post(`${STEPS}/google`, () =>
          HttpResponse.json({ next: 'second-factor', methods: ['totp'] }),
        ),
      );
      renderAt('/');
      await signInWithGoogle('google-id-token');
      expect(initialize.mock.calls[0]![0]).toMatchObject({ nonce: NONCE });
      const asked = seenRequests().filter((entry) => entry.path === '/api/v1.0/auth/google/nonce');
      expect(asked[0]!.headers.get('tenant-id')).toBe(tenant.id);
      // The credential used the nonce up: the button is set up again with a fresh one.
      await waitFor(() => expect(initialize).toHaveBeenCalledTimes(2));
      expect(
        seenRequests().filter((entry) => entry.path === '/api/v1.0/auth/google/nonce'),
      ).toHaveLength(2);
    });

    it("shows Google's failure and stays when the step refuses", async () => {
      identityProvider();
      server.use(
        http.post(`${STEPS}/google`, () =>
          HttpResponse.json(
            { error: 'access_denied', error_description: 'No account.' },
            { status: 403 },
          ),
        ),
      );
      renderAt('/');
      await signInWithGoogle('google-id-token');
      expect(await screen.findByText('Google Sign-In failed. Please try again.')).toBeVisible();
      expect(screen.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      expect(getSession()).toBeNull();
      expect(codeFlow.finishAuthorization).not.toHaveBeenCalled();
      expect(assign).not.toHaveBeenCalled();
    });
  },
);
