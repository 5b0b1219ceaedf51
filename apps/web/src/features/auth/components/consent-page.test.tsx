import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAuthPage } from '../../../test/auth-page';
import { loadEnglish } from '../../../test/render';
import { seenRequests, server } from '../../../test/server';
import { demoTenant } from '../../../test/session';
import ConsentPage from './consent-page';

const PAGE = '/login-actions/demo/uid-7';
const BACK = 'http://localhost:4000/callback?error=access_denied';

const renderPage = () =>
  renderAuthPage(<ConsentPage />, {
    page: 'consent',
    url: PAGE,
    tenant: demoTenant,
    hosted: { realm: 'demo', uid: 'uid-7', loginHint: null, passkeys: false },
    consent: { clientName: 'Photo Printer', scopes: ['openid', 'email', 'offline_access'] },
  });

describe('consent page', () => {
  const assign = vi.fn();
  beforeAll(() => loadEnglish([]));
  beforeEach(() => {
    assign.mockClear();
    vi.stubGlobal('location', { ...window.location, assign });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('names the application and what it asks for, in plain words', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Allow Photo Printer?');
    const asks = screen.getByRole('list', { name: /Photo Printer asks to use your demo account/ });
    expect([...asks.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      "Know who you are (your account's identifier)",
      'See your email address',
      'Keep you signed in, also when you are not using it',
    ]);
    // Without script the buttons post the page's form to the sign-in request's address.
    const form = screen.getByRole('button', { name: 'Allow' }).closest('form')!;
    expect(form.getAttribute('action')).toBe(PAGE);
    expect(form.getAttribute('method')).toBe('post');
  });

  it('sends Deny to the consent step and goes where it says', async () => {
    server.use(
      http.post(`${PAGE}/consent`, () => HttpResponse.json({ next: 'done', redirectTo: BACK })),
    );
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(BACK));
    const sent = seenRequests().find((entry) => entry.path === `${PAGE}/consent`);
    expect(await sent?.request.clone().text()).toBe('decision=deny');
  });
});
