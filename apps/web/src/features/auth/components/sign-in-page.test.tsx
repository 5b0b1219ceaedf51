import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthPageContext } from '../auth-page-context';
import { pageContext, renderAuthPage } from '../../../test/auth-page';
import { loadEnglish } from '../../../test/render';
import { seenRequests, server } from '../../../test/server';
import { signOut } from '../../../test/session';
import HostedSignInPage from './hosted-sign-in-page';
import SignInPage from './sign-in-page';

const PAGE = '/login-actions/shop/uid-1';
const RESUME = 'http://localhost/realms/shop/protocol/openid-connect/auth/uid-1';
const hosted = { realm: 'shop', uid: 'uid-1', loginHint: null, passkeys: false };

/** The named fields of a form, as it would post them without script. */
const fieldsOf = (form: HTMLFormElement) =>
  Object.fromEntries([...new FormData(form).entries()].map(([name, value]) => [name, value]));

describe('sign-in page: as the server renders it', () => {
  beforeAll(() => loadEnglish([]));
  beforeEach(() => signOut());

  it('posts its fields to /login, with the values and the refusal of the last post', () => {
    renderAuthPage(<SignInPage />, {
      values: { username: 'erin@demo.example', remember: 'on' },
      error: { kind: 'oauth', error: 'invalid_grant', description: 'Invalid user credentials' },
    });
    const form = screen.getByRole('button', { name: 'Sign in' }).closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/login');
    expect(screen.getByLabelText('Email')).toHaveValue('erin@demo.example');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).toBeChecked();
    expect(fieldsOf(form)).toEqual({ username: 'erin@demo.example', password: '', remember: 'on' });
    // The same words as the refusal met with script.
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Login failed: Authentication failed: Invalid user credentials',
    );
    expect(screen.getByTestId('tenant-name')).toHaveTextContent('demo');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it("posts the hosted sign-in to its request's page", () => {
    renderAuthPage(<HostedSignInPage />, { page: 'hostedSignIn', url: PAGE, hosted });
    const form = screen.getByRole('button', { name: 'Sign in' }).closest('form')!;
    expect(form).toHaveAttribute('action', PAGE);
  });

  it('offers the four languages as links that keep the query and mark the current one', () => {
    renderAuthPage(
      <SignInPage />,
      { page: 'forgotPassword', url: '/forgotpassword?email=a%40b.c', language: 'de' },
      { search: 'email=a%40b.c' },
    );
    const nav = screen.getByRole('navigation', { name: 'Language' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/forgotpassword?email=a%40b.c&lang=en',
      '/forgotpassword?email=a%40b.c&lang=de',
      '/forgotpassword?email=a%40b.c&lang=fr',
      '/forgotpassword?email=a%40b.c&lang=it',
    ]);
    const german = within(nav).getByRole('link', { name: 'Deutsch' });
    expect(german).toHaveAttribute('aria-current', 'true');
    expect(german).toHaveAttribute('hreflang', 'de');
    expect(german).toHaveAttribute('lang', 'de');
    expect(within(nav).getByRole('link', { name: 'English' })).not.toHaveAttribute('aria-current');
  });
});

describe('sign-in page: taken over by its script', () => {
  const assign = vi.fn();
  beforeAll(() => loadEnglish([]));
  beforeEach(() => {
    signOut();
    assign.mockClear();
    vi.stubGlobal('location', { ...window.location, assign });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps what was typed before the script ran, and signs in with it', async () => {
    server.use(
      http.post(`${PAGE}/login`, () => HttpResponse.json({ next: 'done', redirectTo: RESUME })),
    );
    const context = pageContext({ page: 'hostedSignIn', url: PAGE, hosted });
    const page = (
      <AuthPageContext.Provider value={context}>
        <HostedSignInPage />
      </AuthPageContext.Provider>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(page);
    document.body.append(container);
    const field = (label: string) =>
      container.querySelector<HTMLInputElement>(`input[name="${label}"]`)!;
    field('username').value = 'early@shop.example';
    field('password').value = 'Typed-before-1!';
    field('remember').checked = true;

    await act(async () => {
      hydrateRoot(container, page);
    });
    expect(field('username')).toHaveValue('early@shop.example');
    expect(field('remember')).toBeChecked();
    act(() => within(container).getByRole('button', { name: 'Sign in' }).click());
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    const sent = seenRequests().find((entry) => entry.path === `${PAGE}/login`)!;
    expect(Object.fromEntries(new URLSearchParams(await sent.request.text()))).toEqual({
      username: 'early@shop.example',
      password: 'Typed-before-1!',
      remember: 'true',
    });
    container.remove();
  });

  it('opens at the second step a post without script reached, with its refusal', async () => {
    server.use(
      http.post(`${PAGE}/second-factor`, () =>
        HttpResponse.json({ next: 'done', redirectTo: RESUME }),
      ),
    );
    const { user } = renderAuthPage(<HostedSignInPage />, {
      page: 'hostedSignIn',
      url: `${PAGE}/second-factor`,
      hosted,
      pending: { stepsPath: PAGE, step: { next: 'second-factor', methods: ['totp'] } },
      error: { kind: 'oauth', error: 'invalid_grant', description: 'Invalid code' },
    });
    expect(screen.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('That code is not right.');
    const field = screen.getByLabelText('Authentication code');
    const form = field.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', PAGE);
    expect(field).toHaveAttribute('name', 'code');

    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says without script that the enrolment needs it', () => {
    const context = pageContext({
      page: 'hostedSignIn',
      url: `${PAGE}/login`,
      hosted,
      pending: { stepsPath: PAGE, step: { next: 'enrol' } },
    });
    const html = renderToString(
      <AuthPageContext.Provider value={context}>
        <HostedSignInPage />
      </AuthPageContext.Provider>,
    );
    expect(html).toContain('Set up two-step verification');
    expect(html).toContain('<noscript>');
    expect(html).toContain('Setting up two-step verification needs JavaScript.');
  });
});
