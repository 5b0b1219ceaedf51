import i18n, { type BackendModule, type ResourceLanguage } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import { storageKeys } from './storage-keys';

export const languages = ['en', 'de', 'fr', 'it'] as const;
export type Language = (typeof languages)[number];

/**
 * English is bundled (it is the fallback); the other languages are separate chunks fetched
 * when chosen or detected, so the first load carries one translation only.
 */
const loaders: Record<string, () => Promise<{ default: ResourceLanguage }>> = {
  en: () => Promise.resolve({ default: en }),
  de: () => import('../locales/de.json'),
  fr: () => import('../locales/fr.json'),
  it: () => import('../locales/it.json'),
};

/**
 * Each screen's texts are a namespace of their own (`locales/<namespace>/<language>.json`),
 * loaded with the screen's chunk, so the sign-in route carries none of them.
 */
const namespaceLoaders = import.meta.glob<{ default: ResourceLanguage }>('../locales/*/*.json');

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load =
      namespace === 'translation'
        ? loaders[language]
        : namespaceLoaders[`../locales/${namespace}/${language}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

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
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: storageKeys.language,
      caches: ['localStorage'],
    },
  });

export default i18n;
