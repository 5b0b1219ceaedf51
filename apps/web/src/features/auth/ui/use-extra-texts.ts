import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Namespace = 'second-factor' | 'lists';

// One chunk per namespace and language: only the enrolment and its recovery codes, which need
// script anyway, use these texts, so the page does not embed them.
const load = (namespace: Namespace, language: string): Promise<{ default: object }> =>
  namespace === 'second-factor'
    ? import(`../../../locales/second-factor/${language}.json`)
    : import(`../../../locales/lists/${language}.json`);

/**
 * Texts of the console's other namespaces the later sign-in steps share with the account page
 * (the authenticator's QR code, the recovery codes): loaded into i18next on first use; true
 * once they are there.
 */
export function useExtraTexts(namespaces: readonly Namespace[]): boolean {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  // Bumped when a load ends, so the page looks again at what i18next holds.
  const [, setLoads] = useState(0);
  const absent = namespaces.filter((ns) => !i18n.hasResourceBundle(language, ns));
  const wanted = absent.join(' ');
  useEffect(() => {
    if (wanted === '') return;
    let active = true;
    void Promise.all(
      wanted.split(' ').map(async (ns) => {
        const texts = await load(ns as Namespace, language).catch(() =>
          load(ns as Namespace, 'en'),
        );
        i18n.addResourceBundle(language, ns, texts.default, true, false);
      }),
    ).then(() => {
      if (active) setLoads((count) => count + 1);
    });
    return () => {
      active = false;
    };
  }, [i18n, language, wanted]);
  return absent.length === 0;
}
