import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { LANGUAGE_COOKIE } from '@tc/contract/auth-page';
import en from '../locales/en.json';
import { storageKeys } from './storage-keys';

export const languages = ['en', 'de', 'fr', 'it'] as const;
export type Language = (typeof languages)[number];

/**
 * English is bundled (it is the fallback); every other language, and each screen's texts (a
 * namespace of their own, `locales/<namespace>/<language>.json`), is a chunk of its own,
 * fetched when chosen or detected, or with the screen, so the first load carries one
 * translation only and the sign-in route none of the screens'.
 */
const lazyLocales = resourcesToBackend((language: string, namespace: string) =>
  namespace === 'translation'
    ? import(`../locales/${language}.json`)
    : import(`../locales/${namespace}/${language}.json`),
);

/** The html lang attribute follows the interface language (WCAG 3.1.1). */
i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = i18n.resolvedLanguage ?? lng;
});

/** Resolves once the detected language's translation is loaded (main.tsx renders after it). */
export const i18nReady = i18n
  .use(LanguageDetector)
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    supportedLngs: [...languages],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    // The cookie is the language the server renders the sign-in pages in (and where they
    // leave the one chosen there), so the console and those pages speak the same one.
    detection: {
      order: ['localStorage', 'cookie', 'navigator'],
      lookupLocalStorage: storageKeys.language,
      lookupCookie: LANGUAGE_COOKIE,
      cookieMinutes: 60 * 24 * 365,
      cookieOptions: { path: '/', sameSite: 'lax' },
      caches: ['localStorage', 'cookie'],
    },
  });

export default i18n;
