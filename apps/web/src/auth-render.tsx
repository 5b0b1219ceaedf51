import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import type { AuthPageLanguage, RenderAuthPage } from '@tc/contract/auth-page';
import { AuthApp, authPageTitle, locationOf } from './features/auth/auth-app';
import { createAuthI18n, type AuthTexts } from './features/auth/auth-i18n';
import { AUTH_PAGE_NAMES, loadAuthPage } from './features/auth/auth-pages';
import de from './locales/de.json';
import en from './locales/en.json';
import fr from './locales/fr.json';
import it from './locales/it.json';
import deProblems from './locales/problems/de.json';
import enProblems from './locales/problems/en.json';
import frProblems from './locales/problems/fr.json';
import itProblems from './locales/problems/it.json';

/**
 * The server-side renderer of the sign-in pages (built into dist-ssr/auth-render.js, imported
 * by the server): every language's texts are here, one i18next instance each, made once.
 */
const texts: Record<AuthPageLanguage, AuthTexts> = {
  en: { translation: en, problems: enProblems },
  de: { translation: de, problems: deProblems },
  fr: { translation: fr, problems: frProblems },
  it: { translation: it, problems: itProblems },
};

const translators = Object.fromEntries(
  Object.entries(texts).map(([language, resources]) => [
    language,
    createAuthI18n(language as AuthPageLanguage, resources),
  ]),
) as Record<AuthPageLanguage, ReturnType<typeof createAuthI18n>>;

// Rendering is synchronous: every page's module is loaded before the first request.
await Promise.all(AUTH_PAGE_NAMES.map(loadAuthPage));

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};

/** The text of the page's first heading in rendered markup. */
function headingText(html: string): string {
  const inner = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
  return inner.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => {
    return ENTITIES[entity] ?? entity;
  });
}

export const renderAuthPage: RenderAuthPage = (state) => {
  const language = texts[state.language] ? state.language : 'en';
  const html = renderToString(
    <I18nextProvider i18n={translators[language]}>
      <AuthApp state={{ ...state, language }} location={locationOf(state.url)} />
    </I18nextProvider>,
  );
  return { html, texts: texts[language], title: authPageTitle(headingText(html), state) };
};
