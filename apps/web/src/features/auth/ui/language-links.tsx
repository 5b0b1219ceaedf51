import { hostedSignInPath } from '@tc/contract/links';
import { AUTH_PAGE_LANGUAGES, AUTH_PAGE_PATHS, type AuthPageState } from '@tc/contract/auth-page';
import { useTranslation } from 'react-i18next';
import { useAuthPage } from '../auth-page-context';

/** Each language in its own words: a reader of that language finds it whatever the page's. */
const NAMES: Record<(typeof AUTH_PAGE_LANGUAGES)[number], string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
};

/** The address of the page shown, which a language link reloads in another language. */
function pagePath(state: AuthPageState): string {
  // The consent page is shown at its sign-in request's address too.
  if (state.page === 'hostedSignIn' || state.page === 'consent') {
    return state.hosted
      ? hostedSignInPath(state.hosted.realm, state.hosted.uid)
      : new URL(state.url, 'http://page').pathname;
  }
  return AUTH_PAGE_PATHS[state.page];
}

/**
 * The four languages as plain links: the server renders the page in the one chosen (`lang`
 * sets its cookie), so the choice works without script. The rest of the query is kept.
 */
export function LanguageLinks() {
  const { t } = useTranslation();
  const { state, search } = useAuthPage();
  const path = pagePath(state);
  return (
    <nav className="auth-languages" aria-label={t('auth.languages')}>
      <ul>
        {AUTH_PAGE_LANGUAGES.map((language) => {
          const query = new URLSearchParams(search);
          query.set('lang', language);
          const current = language === state.language;
          return (
            <li key={language}>
              <a
                href={`${path}?${query.toString()}`}
                lang={language}
                hrefLang={language}
                aria-current={current ? 'true' : undefined}
              >
                {NAMES[language]}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
