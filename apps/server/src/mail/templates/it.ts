import type { MailStrings } from './types';

export const it: MailStrings = {
  greeting: (name) => (name ? `Ciao ${name},` : 'Ciao,'),
  footer: (tenant) => `Questo messaggio è stato inviato da ${tenant} tramite Tenant Console.`,
  kinds: {
    invite: ({ tenant }) => ({
      subject: `Invito a ${tenant}`,
      paragraphs: [
        `Sei stato invitato a unirti a ${tenant}. Scegli una password per attivare il tuo account.`,
        'Questo link funziona una sola volta e scade tra 7 giorni.',
      ],
      action: 'Imposta la password',
    }),
    reset: ({ tenant }) => ({
      subject: `Reimposta la password di ${tenant}`,
      paragraphs: [
        `Qualcuno ha chiesto di reimpostare la password del tuo account ${tenant}. Scegli una nuova password con il link qui sotto.`,
        'Questo link funziona una sola volta e scade tra 30 minuti. Se non l’hai chiesto tu, ignora questo messaggio: la tua password resta invariata.',
      ],
      action: 'Reimposta la password',
    }),
    verify: ({ tenant }) => ({
      subject: `Conferma il tuo indirizzo e-mail per ${tenant}`,
      paragraphs: [
        `Grazie per esserti registrato a ${tenant}. Conferma il tuo indirizzo e-mail per completare la configurazione del tuo account.`,
        'Questo link funziona una sola volta e scade tra 24 ore.',
      ],
      action: 'Conferma l’indirizzo e-mail',
    }),
    passwordChanged: ({ tenant }) => ({
      subject: `La tua password di ${tenant} è stata modificata`,
      paragraphs: [
        `La password del tuo account ${tenant} è appena stata modificata e tutte le sessioni sono state chiuse.`,
        'Se non sei stato tu, reimposta subito la password e avvisa il tuo amministratore.',
      ],
    }),
    signupExisting: ({ tenant }) => ({
      subject: `Tentativo di registrazione per il tuo account ${tenant}`,
      paragraphs: [
        `Qualcuno ha provato a registrarsi a ${tenant} con il tuo indirizzo e-mail, ma hai già un account.`,
        'Se sei stato tu, accedi o reimposta la password con il link qui sotto. Altrimenti ignora questo messaggio.',
      ],
      action: 'Reimposta la password',
    }),
  },
};
