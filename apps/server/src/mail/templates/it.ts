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
    totpAdded: ({ tenant }) => ({
      subject: `È stata aggiunta un’app di autenticazione al tuo account ${tenant}`,
      paragraphs: [
        `Un’app di autenticazione ora protegge il tuo account ${tenant} come secondo fattore.`,
        `Se non sei stato tu, cambia subito la password e avvisa il tuo amministratore.`,
      ],
    }),
    totpRemoved: ({ tenant }) => ({
      subject: `L’app di autenticazione è stata rimossa dal tuo account ${tenant}`,
      paragraphs: [
        `L’app di autenticazione del tuo account ${tenant} è stata rimossa, insieme ai codici di recupero.`,
        `Se non sei stato tu, cambia subito la password e avvisa il tuo amministratore.`,
      ],
    }),
    passkeyAdded: ({ tenant }) => ({
      subject: `È stata aggiunta una passkey al tuo account ${tenant}`,
      paragraphs: [
        `Una nuova passkey ora può accedere al tuo account ${tenant}.`,
        `Se non sei stato tu, cambia subito la password e avvisa il tuo amministratore.`,
      ],
    }),
    passkeyRemoved: ({ tenant }) => ({
      subject: `È stata rimossa una passkey dal tuo account ${tenant}`,
      paragraphs: [
        `Una passkey del tuo account ${tenant} è stata rimossa; non può più accedere.`,
        `Se non sei stato tu, cambia subito la password e avvisa il tuo amministratore.`,
      ],
    }),
    recoveryCodeUsed: ({ tenant }) => ({
      subject: `È stato usato un codice di recupero del tuo account ${tenant}`,
      paragraphs: [
        `È appena stato usato un codice di recupero per accedere al tuo account ${tenant}. Ogni codice funziona una volta; creane di nuovi nella pagina del tuo account quando ne restano pochi.`,
        `Se non sei stato tu, cambia subito la password e avvisa il tuo amministratore.`,
      ],
    }),
    secondFactorsReset: ({ tenant }) => ({
      subject: `I secondi fattori del tuo account ${tenant} sono stati reimpostati`,
      paragraphs: [
        `Un amministratore di ${tenant} ha rimosso i secondi fattori del tuo account. Se il tenant ne richiede uno, ti verrà chiesto di configurarlo al prossimo accesso.`,
        `Se non sei stato tu, cambia subito la password e avvisa il tuo amministratore.`,
      ],
    }),
    newBrowser: ({ tenant, detail }) => ({
      subject: `Nuovo accesso al tuo account ${tenant}`,
      paragraphs: [
        `Al tuo account ${tenant} è appena stato effettuato l’accesso da un browser mai usato prima: ${detail ?? ''}.`,
        `Se non sei stato tu, cambia subito la password e avvisa il tuo amministratore.`,
        `Puoi disattivare questi messaggi nella pagina del tuo account.`,
      ],
    }),
  },
};
