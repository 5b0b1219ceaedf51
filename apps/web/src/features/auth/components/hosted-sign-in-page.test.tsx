import type { TenantInfo } from '@tc/contract/identity';
import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadEnglish } from '../../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../../test/server';
import { demoTenant } from '../../../test/session';
import HostedSignInPage from './hosted-sign-in-page';
import { renderAuthPage } from '../../../test/auth-page';

const PAGE = '/login-actions/shop/uid-1';
const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
const NONCE = 'nonce-of-this-sign-in';
const RESUME = 'http://localhost/realms/shop/protocol/openid-connect/auth/uid-1';
const shop: TenantInfo = {
  ...demoTenant,
  id: '00000000-0000-4000-8000-000000000002',
  name: 'shop',
};

/** Google Identity Services as the page meets it: the script's global, its calls recorded. */
const initialize = vi.fn<(options: { callback: (r: { credential: string }) => void }) => void>();
const renderButton = vi.fn<(parent: HTMLElement, options: Record<string, unknown>) => void>();

const hosted = { realm: 'shop', uid: 'uid-1', loginHint: null, passkeys: false };

/** The page as the server renders it for the realm's request: its details and its tenant. */
const renderPage = (tenant: TenantInfo = shop, expired = false) =>
  renderAuthPage(<HostedSignInPage />, {
    page: 'hostedSignIn',
    url: PAGE,
    tenant,
    hosted: { ...hosted, expired },
  });

/** Lets Google's script "load" (jsdom fetches none) and hands the page Google's ID token. */
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

describe('hosted sign-in page: Sign in with Google', () => {
  const assign = vi.fn();
  beforeAll(() => loadEnglish([]));
  beforeEach(() => {
    initialize.mockClear();
    renderButton.mockClear();
    assign.mockClear();
    window.google = { accounts: { id: { initialize, renderButton } } };
    // The nonce Google is to put in its ID token, which the server gives this sign-in.
    server.use(http.post('/api/v1.0/auth/google/nonce', () => HttpResponse.json({ nonce: NONCE })));
    vi.stubGlobal('location', { ...window.location, assign });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete window.google;
  });

  it('offers no Google button where the tenant has no Google', async () => {
    renderPage();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(screen.getByTestId('tenant-name')).toHaveTextContent('shop');
    expect(document.head.querySelector(`script[src="${GOOGLE_SCRIPT}"]`)).toBeNull();
    // Its details came with the page: nothing was asked of the server.
    expect(seenRequests()).toEqual([]);
  });

  it('says so when the request has expired', () => {
    renderPage(shop, true);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This sign-in request has expired or was opened in another browser.',
    );
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it("renders Google's button for the realm's tenant, posts the credential and goes on", async () => {
    server.use(http.post(`${PAGE}/google`, () => HttpResponse.json({ redirectTo: RESUME })));
    renderPage({ ...shop, googleEnabled: true, googleClientId: 'shop-client.apps.example' });
    await signInWithGoogle('google-id-token');
    expect(initialize.mock.calls.at(-1)![0]).toMatchObject({
      client_id: 'shop-client.apps.example',
    });
    expect(renderButton).toHaveBeenCalledWith(
      expect.any(HTMLElement),
      expect.objectContaining({ text: 'signin_with' }),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(await bodiesSentTo(`${PAGE}/google`)).toEqual([{ credential: 'google-id-token' }]);
  });

  it("shows the console's Google failure and stays when the server refuses", async () => {
    server.use(
      http.post(`${PAGE}/google`, () =>
        HttpResponse.json(
          { error: 'access_denied', error_description: 'No account.' },
          { status: 403 },
        ),
      ),
    );
    renderPage({ ...shop, googleEnabled: true, googleClientId: 'shop-client.apps.example' });
    await signInWithGoogle('google-id-token');
    expect(await screen.findByText('Google Sign-In failed. Please try again.')).toBeVisible();
    expect(assign).not.toHaveBeenCalled();
  });
});
