import { createInstance, type i18n as I18n, type Resource } from 'i18next';
import type { AuthPageLanguage } from '@tc/contract/auth-page';

/** The namespaces the sign-in pages use, embedded in the page's boot JSON. */
export const AUTH_NAMESPACES = ['translation', 'problems'] as const;

/** A page's texts: one language's resources of the sign-in pages' namespaces. */
export type AuthTexts = Record<(typeof AUTH_NAMESPACES)[number], Record<string, unknown>>;

/**
 * The sign-in pages' translations in one language, ready at once: the server renders with the
 * texts it also writes into the page, and the script starts from them, so neither waits for
 * a fetch (no detector, no backend: the language is the server's choice).
 */
export function createAuthI18n(language: AuthPageLanguage, texts: AuthTexts): I18n {
  const instance = createInstance();
  void instance.init({
    lng: language,
    fallbackLng: false,
    ns: [...AUTH_NAMESPACES],
    defaultNS: 'translation',
    resources: { [language]: texts } as Resource,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}
