import type { MailStrings } from './types';

export const de: MailStrings = {
  greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
  footer: (tenant) => `Diese Nachricht wurde von ${tenant} über Tenant Console gesendet.`,
  kinds: {
    invite: ({ tenant }) => ({
      subject: `Einladung zu ${tenant}`,
      paragraphs: [
        `Sie wurden eingeladen, ${tenant} beizutreten. Wählen Sie ein Passwort, um Ihr Konto zu aktivieren.`,
        'Dieser Link funktioniert einmal und läuft in 7 Tagen ab.',
      ],
      action: 'Passwort festlegen',
    }),
    reset: ({ tenant }) => ({
      subject: `Passwort für ${tenant} zurücksetzen`,
      paragraphs: [
        `Jemand hat angefordert, das Passwort Ihres Kontos bei ${tenant} zurückzusetzen. Wählen Sie über den folgenden Link ein neues Passwort.`,
        'Dieser Link funktioniert einmal und läuft in 30 Minuten ab. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.',
      ],
      action: 'Passwort zurücksetzen',
    }),
    verify: ({ tenant }) => ({
      subject: `Bestätigen Sie Ihre E-Mail-Adresse für ${tenant}`,
      paragraphs: [
        `Danke für Ihre Registrierung bei ${tenant}. Bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto fertig einzurichten.`,
        'Dieser Link funktioniert einmal und läuft in 24 Stunden ab.',
      ],
      action: 'E-Mail-Adresse bestätigen',
    }),
    passwordChanged: ({ tenant }) => ({
      subject: `Ihr Passwort für ${tenant} wurde geändert`,
      paragraphs: [
        `Das Passwort Ihres Kontos bei ${tenant} wurde soeben geändert, und alle Sitzungen wurden abgemeldet.`,
        'Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort zurück und informieren Sie Ihre Administration.',
      ],
    }),
    signupExisting: ({ tenant }) => ({
      subject: `Registrierungsversuch für Ihr Konto bei ${tenant}`,
      paragraphs: [
        `Jemand hat versucht, sich mit Ihrer E-Mail-Adresse bei ${tenant} zu registrieren, aber Sie haben bereits ein Konto.`,
        'Wenn Sie das waren, melden Sie sich an oder setzen Sie Ihr Passwort über den folgenden Link zurück. Andernfalls ignorieren Sie diese Nachricht.',
      ],
      action: 'Passwort zurücksetzen',
    }),
  },
};
