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
    totpAdded: ({ tenant }) => ({
      subject: `Eine Authenticator-App wurde Ihrem Konto bei ${tenant} hinzugefügt`,
      paragraphs: [
        `Eine Authenticator-App schützt Ihr Konto bei ${tenant} jetzt als zweiter Faktor.`,
        `Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und informieren Sie Ihre Administration.`,
      ],
    }),
    totpRemoved: ({ tenant }) => ({
      subject: `Die Authenticator-App wurde von Ihrem Konto bei ${tenant} entfernt`,
      paragraphs: [
        `Die Authenticator-App Ihres Kontos bei ${tenant} wurde entfernt, mit ihren Wiederherstellungscodes.`,
        `Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und informieren Sie Ihre Administration.`,
      ],
    }),
    passkeyAdded: ({ tenant }) => ({
      subject: `Ein Passkey wurde Ihrem Konto bei ${tenant} hinzugefügt`,
      paragraphs: [
        `Ein neuer Passkey kann sich jetzt bei Ihrem Konto bei ${tenant} anmelden.`,
        `Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und informieren Sie Ihre Administration.`,
      ],
    }),
    passkeyRemoved: ({ tenant }) => ({
      subject: `Ein Passkey wurde von Ihrem Konto bei ${tenant} entfernt`,
      paragraphs: [
        `Ein Passkey Ihres Kontos bei ${tenant} wurde entfernt; er kann sich nicht mehr anmelden.`,
        `Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und informieren Sie Ihre Administration.`,
      ],
    }),
    recoveryCodeUsed: ({ tenant }) => ({
      subject: `Ein Wiederherstellungscode Ihres Kontos bei ${tenant} wurde verwendet`,
      paragraphs: [
        `Soeben wurde mit einem Wiederherstellungscode eine Anmeldung bei Ihrem Konto bei ${tenant} durchgeführt. Jeder Code funktioniert einmal; erstellen Sie auf Ihrer Kontoseite neue, wenn nur noch wenige übrig sind.`,
        `Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und informieren Sie Ihre Administration.`,
      ],
    }),
    secondFactorsReset: ({ tenant }) => ({
      subject: `Die zweiten Faktoren Ihres Kontos bei ${tenant} wurden zurückgesetzt`,
      paragraphs: [
        `Eine Administratorin oder ein Administrator von ${tenant} hat die zweiten Faktoren Ihres Kontos entfernt. Verlangt der Mandant einen, werden Sie bei der nächsten Anmeldung gebeten, ihn einzurichten.`,
        `Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und informieren Sie Ihre Administration.`,
      ],
    }),
    newBrowser: ({ tenant, detail }) => ({
      subject: `Neue Anmeldung bei Ihrem Konto bei ${tenant}`,
      paragraphs: [
        `Bei Ihrem Konto bei ${tenant} wurde soeben aus einem Browser angemeldet, der bisher nicht verwendet wurde: ${detail ?? ''}.`,
        `Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und informieren Sie Ihre Administration.`,
        `Sie können diese Nachrichten auf Ihrer Kontoseite abschalten.`,
      ],
    }),
  },
};
