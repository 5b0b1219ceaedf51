import type { AuthPageState } from '@tc/contract/auth-page';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoTenant } from '../../test/session';
import { AuthApp } from './auth-app';
import { useAuthPage } from './auth-page-context';
import type * as AuthPages from './auth-pages';
import { loadAuthPage } from './auth-pages';

/** A page that shows what it reads from the context and moves on when asked. */
function FakePage({ name }: { name: string }) {
  const { state, search, navigationState, navigate } = useAuthPage();
  return (
    <main>
      <h1>{name}</h1>
      <p data-testid="read">
        {JSON.stringify({
          page: state.page,
          url: state.url,
          query: search.toString(),
          values: state.values ?? null,
          error: state.error?.kind ?? null,
          handedOver: navigationState ?? null,
        })}
      </p>
      <button onClick={() => navigate('/checkemail?x=1', { state: { email: 'a@b.c' } })}>
        check
      </button>
      <button onClick={() => navigate('/forgotpassword', { replace: true })}>forgot</button>
      <button onClick={() => navigate('/home')}>console</button>
    </main>
  );
}

// Each page is a fake naming itself; the app's own logic (addresses, history) is real.
vi.mock('./auth-pages', async (importOriginal) => {
  const actual = await importOriginal<typeof AuthPages>();
  const pages = new Map<string, () => React.JSX.Element>();
  const page = (name: string) => {
    if (!pages.has(name)) pages.set(name, () => <FakePage name={name} />);
    return pages.get(name)!;
  };
  return {
    ...actual,
    loadAuthPage: vi.fn(async (name: string) => page(name)),
    loadedAuthPage: (name: string) => page(name),
  };
});

const signIn: AuthPageState = {
  page: 'signIn',
  language: 'en',
  tenant: demoTenant,
  url: '/login',
  values: { username: 'ada@demo.localhost' },
  error: { kind: 'oauth', error: 'invalid_grant', description: 'Invalid user credentials' },
};

const read = () =>
  JSON.parse(screen.getByTestId('read').textContent ?? '{}') as Record<string, unknown>;

function renderApp(state = signIn) {
  window.history.replaceState(null, '', state.url);
  render(<AuthApp state={state} location={window.location} />);
  return userEvent.setup();
}

describe('the sign-in pages app', () => {
  beforeEach(() => vi.mocked(loadAuthPage).mockClear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows the page of the state, with what the server rendered it from', () => {
    renderApp();
    expect(screen.getByRole('heading', { name: 'signIn' })).toBeInTheDocument();
    expect(read()).toMatchObject({ values: { username: 'ada@demo.localhost' }, error: 'oauth' });
  });

  it('moves to another page without a page load, handing over state, and back', async () => {
    const user = renderApp();
    const entries = window.history.length;
    await user.click(screen.getByRole('button', { name: 'check' }));

    expect(await screen.findByRole('heading', { name: 'checkEmail' })).toBeInTheDocument();
    expect(window.location.pathname + window.location.search).toBe('/checkemail?x=1');
    expect(window.history.length).toBe(entries + 1);
    // What the server rendered for the sign-in form belongs to that page only.
    expect(read()).toEqual({
      page: 'checkEmail',
      url: '/checkemail?x=1',
      query: 'x=1',
      values: null,
      error: null,
      handedOver: { email: 'a@b.c' },
    });
    expect(document.title).toBe('checkEmail · demo');

    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(await screen.findByRole('heading', { name: 'signIn' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(read()).toMatchObject({ page: 'signIn', values: null, handedOver: null });
  });

  it('replaces the history entry when asked', async () => {
    const user = renderApp();
    const entries = window.history.length;
    await user.click(screen.getByRole('button', { name: 'forgot' }));
    expect(await screen.findByRole('heading', { name: 'forgotPassword' })).toBeInTheDocument();
    expect(window.history.length).toBe(entries);
    expect(window.location.pathname).toBe('/forgotpassword');
  });

  it('loads the console for an address that is not a sign-in page', async () => {
    const user = renderApp();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await user.click(screen.getByRole('button', { name: 'console' }));
    expect(assign).toHaveBeenCalledWith('http://localhost:3000/home');
    expect(loadAuthPage).not.toHaveBeenCalled();
  });
});
