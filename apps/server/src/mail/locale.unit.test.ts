import { describe, expect, it } from 'vitest';
import { fromAcceptLanguage, pickLocale } from './locale';
import { renderMail } from './render';
import { MAIL_LOCALES } from './locale';
import type { MailKind } from './templates/types';

describe('mail language', () => {
  it('reads Accept-Language by quality, skipping what we do not translate', () => {
    expect(fromAcceptLanguage('es-ES, it;q=0.5, de;q=0.9')).toBe('de');
    expect(fromAcceptLanguage('fr-CH')).toBe('fr');
    expect(fromAcceptLanguage('de;q=0, en;q=0.1')).toBe('en');
    expect(fromAcceptLanguage('es, pt')).toBeUndefined();
    expect(fromAcceptLanguage(undefined)).toBeUndefined();
  });

  it('prefers the saved preference, then the browser, then English', () => {
    expect(pickLocale('it', 'de')).toBe('it');
    expect(pickLocale(null, 'de-AT')).toBe('de');
    expect(pickLocale('xx', 'es')).toBe('en');
  });

  it('has every mail in every language, naming the tenant in text and HTML', () => {
    const kinds: MailKind[] = [
      'invite',
      'reset',
      'verify',
      'passwordChanged',
      'signupExisting',
      'totpAdded',
      'totpRemoved',
      'passkeyAdded',
      'passkeyRemoved',
      'recoveryCodeUsed',
      'secondFactorsReset',
      'newBrowser',
    ];
    for (const locale of MAIL_LOCALES) {
      for (const kind of kinds) {
        const mail = renderMail(kind, locale, {
          tenant: 'Acme & Co',
          name: 'Ada',
          link: 'http://x/y',
        });
        expect(mail.subject).toContain('Acme & Co');
        expect(mail.text).toContain('Acme & Co');
        expect(mail.html).toContain('Acme &amp; Co');
        expect(mail.html).toContain(`lang="${locale}"`);
      }
    }
  });
});
