/** The languages every mail exists in; English is the fallback. */
export const MAIL_LOCALES = ['en', 'de', 'fr', 'it'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];
export const DEFAULT_LOCALE: MailLocale = 'en';

const isMailLocale = (value: string): value is MailLocale =>
  (MAIL_LOCALES as readonly string[]).includes(value);

/** `de-CH` → `de`; anything we do not translate → undefined. */
export function toMailLocale(tag: string | null | undefined): MailLocale | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isMailLocale(primary) ? primary : undefined;
}

/**
 * The best supported language of an Accept-Language header (RFC 9110 §12.5.4): ranges by
 * descending q, first listed wins a tie, q=0 means "not this one".
 */
export function fromAcceptLanguage(header: string | undefined): MailLocale | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    const locale = toMailLocale(range.tag);
    if (locale) return locale;
  }
  return undefined;
}

/** A saved preference wins over the browser's; English when neither is one of ours. */
export function pickLocale(saved: string | null | undefined, acceptLanguage?: string): MailLocale {
  return toMailLocale(saved) ?? fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}
