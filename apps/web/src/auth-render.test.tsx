import type { AuthPageState } from '@tc/contract/auth-page';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { AuthApp } from './features/auth/auth-app';
import { createAuthI18n, type AuthTexts } from './features/auth/auth-i18n';
import { renderAuthPage } from './auth-render';
import { demoTenant } from './test/session';

const state = (patch: Partial<AuthPageState>): AuthPageState => ({
  page: 'signIn',
  language: 'en',
  tenant: demoTenant,
  url: '/login',
  ...patch,
});

/** The opening tag of the page's form, its attributes in any order. */
const formTag = (html: string) => /<form[^>]*>/.exec(html)?.[0] ?? '';

describe('the sign-in pages rendered by the server', () => {
  it('renders the console sign-in as a form posting to /login, with the tenant and a title', () => {
    const page = renderAuthPage(state({}));
    expect(formTag(page.html)).toMatch(/method="post"/);
    expect(formTag(page.html)).toMatch(/action="\/login"/);
    expect(page.html).toContain('name="username"');
    expect(page.html).toContain('data-testid="tenant-name"');
    expect(page.html).toContain('>demo<');
    expect(page.title).toBe('Sign in · demo');
    // The script starts from the same texts, so it needs no request for them.
    expect(Object.keys(page.texts).sort()).toEqual(['problems', 'translation']);
  });

  it("renders in the state's language, with that language's texts", () => {
    const page = renderAuthPage(state({ language: 'de' }));
    expect(page.title).toBe('Anmelden · demo');
    expect(page.html).toContain('Anmelden');
    expect((page.texts.translation as { signIn: { title: string } }).signIn.title).toBe('Anmelden');
  });

  it('shows the error of a form posted without script, and the values sent', () => {
    const page = renderAuthPage(
      state({
        values: { username: 'ada@demo.localhost' },
        error: { kind: 'oauth', error: 'invalid_grant', description: 'Invalid user credentials' },
      }),
    );
    expect(page.html).toContain('role="alert"');
    expect(page.html).toContain('Invalid user credentials');
    expect(page.html).toContain('value="ada@demo.localhost"');
  });

  it("posts an application's sign-in to its request's page", () => {
    const page = renderAuthPage(
      state({
        page: 'hostedSignIn',
        url: '/login-actions/demo/abc',
        hosted: { realm: 'demo', uid: 'abc', loginHint: null, passkeys: false },
      }),
    );
    expect(formTag(page.html)).toMatch(/action="\/login-actions\/demo\/abc"/);
  });

  it('renders the forgotten-password form and the callback page', () => {
    const forgot = renderAuthPage(state({ page: 'forgotPassword', url: '/forgotpassword' }));
    expect(formTag(forgot.html)).toMatch(/action="\/forgotpassword"/);
    expect(formTag(forgot.html)).toMatch(/method="post"/);

    const callback = renderAuthPage(state({ page: 'callback', url: '/auth/callback?code=c' }));
    expect(callback.html).toContain('role="progressbar"');
    expect(callback.html).toContain('<noscript>');
    expect(callback.html).toContain('The console needs JavaScript');
  });

  it.each([
    state({ language: 'fr', values: { username: 'ada@demo.localhost' } }),
    state({ page: 'signUp', url: '/signup' }),
    state({ page: 'newPassword', url: '/newpassword?token=t' }),
  ])('is taken over by the script without a mismatch ($page, $language)', async (page) => {
    const rendered = renderAuthPage(page);
    window.history.replaceState(null, '', page.url);
    const root = document.createElement('div');
    root.innerHTML = rendered.html;
    document.body.append(root);
    const mismatch = vi.fn();
    const i18n = createAuthI18n(page.language, rendered.texts as AuthTexts);
    await act(async () => {
      hydrateRoot(
        root,
        <I18nextProvider i18n={i18n}>
          <AuthApp state={page} location={window.location} />
        </I18nextProvider>,
        { onRecoverableError: mismatch },
      );
    });
    expect(mismatch).not.toHaveBeenCalled();
    root.remove();
  });
});
