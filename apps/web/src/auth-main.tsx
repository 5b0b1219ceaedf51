import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { AUTH_BOOT_ELEMENT_ID, LANGUAGE_COOKIE, type AuthBoot } from '@tc/contract/auth-page';
import { AuthApp } from './features/auth/auth-app';
import { createAuthI18n, type AuthTexts } from './features/auth/auth-i18n';
import { loadAuthPage } from './features/auth/auth-pages';
import { getRefreshToken } from './lib/session';
import { storageKeys } from './lib/storage-keys';
import { storeTenant } from './lib/tenant-store';
// In the entry, so the page's stylesheet is linked from its HTML: styled before any script.
import './features/auth/ui/auth.css';

/**
 * The sign-in pages' script: takes over the page the server rendered (hydration) from the
 * state and texts the server wrote into it, without a request of its own.
 */
const root = document.getElementById('root');
const bootElement = document.getElementById(AUTH_BOOT_ELEMENT_ID);
if (!root || !bootElement) throw new Error('The page has no #root or boot data.');
const boot = JSON.parse(bootElement.textContent ?? '') as AuthBoot;
const { state } = boot;

// The console reads the language from here (its detector), so it goes on in the same one;
// the cookie is what the server renders these pages in.
window.localStorage.setItem(storageKeys.language, state.language);
document.cookie = `${LANGUAGE_COOKIE}=${state.language}; path=/; max-age=31536000; samesite=lax`;
// The tenant of this address is the console's too (its sign-in needs the realm); the hosted
// sign-in (and its consent page) shows the tenant of an application's realm instead, which is
// not this host's.
const hosted = state.page === 'hostedSignIn' || state.page === 'consent';
if (state.tenant && !hosted) storeTenant(state.tenant);

// Someone with a session who opens the console's sign-in goes on to the console, which
// restores the session (or ends it, if it has expired, and comes back here).
const untouched = !state.pending && !state.error && !state.values;
if (state.page === 'signIn' && untouched && getRefreshToken()) window.location.replace('/');

/**
 * The texts the server embedded; a server without its renderer embeds none, and the page
 * then fetches them (the only case where it does).
 */
async function pageTexts(): Promise<AuthTexts> {
  if ('translation' in boot.texts) return boot.texts as AuthTexts;
  const [translation, problems] = await Promise.all([
    import(`./locales/${state.language}.json`),
    import(`./locales/problems/${state.language}.json`),
  ]);
  return {
    translation: (translation as { default: Record<string, unknown> }).default,
    problems: (problems as { default: Record<string, unknown> }).default,
  };
}

void Promise.all([pageTexts(), loadAuthPage(state.page)]).then(([texts]) => {
  const i18n = createAuthI18n(state.language, texts);
  const app = (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <AuthApp state={state} location={window.location} />
      </I18nextProvider>
    </StrictMode>
  );
  // Without the server's markup (it renders none when its renderer is missing), render anew.
  // In a transition, React yields to the browser every few milliseconds instead of taking
  // the page over in one long task; the server's markup shows and posts meanwhile.
  startTransition(() => {
    if (root.firstElementChild) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
});
