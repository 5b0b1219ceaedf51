import type { MailStrings } from './types';

export const fr: MailStrings = {
  greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  footer: (tenant) => `Ce message a été envoyé par ${tenant} via Tenant Console.`,
  kinds: {
    invite: ({ tenant }) => ({
      subject: `Invitation à rejoindre ${tenant}`,
      paragraphs: [
        `Vous avez été invité à rejoindre ${tenant}. Choisissez un mot de passe pour activer votre compte.`,
        'Ce lien ne fonctionne qu’une fois et expire dans 7 jours.',
      ],
      action: 'Choisir mon mot de passe',
    }),
    reset: ({ tenant }) => ({
      subject: `Réinitialisez votre mot de passe ${tenant}`,
      paragraphs: [
        `Quelqu’un a demandé la réinitialisation du mot de passe de votre compte ${tenant}. Choisissez un nouveau mot de passe avec le lien ci-dessous.`,
        'Ce lien ne fonctionne qu’une fois et expire dans 30 minutes. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
      ],
      action: 'Réinitialiser le mot de passe',
    }),
    verify: ({ tenant }) => ({
      subject: `Confirmez votre adresse e-mail pour ${tenant}`,
      paragraphs: [
        `Merci de votre inscription à ${tenant}. Confirmez votre adresse e-mail pour terminer la création de votre compte.`,
        'Ce lien ne fonctionne qu’une fois et expire dans 24 heures.',
      ],
      action: 'Confirmer l’adresse e-mail',
    }),
    passwordChanged: ({ tenant }) => ({
      subject: `Votre mot de passe ${tenant} a été modifié`,
      paragraphs: [
        `Le mot de passe de votre compte ${tenant} vient d’être modifié et toutes les sessions ont été fermées.`,
        'Si ce n’était pas vous, réinitialisez votre mot de passe immédiatement et prévenez votre administrateur.',
      ],
    }),
    signupExisting: ({ tenant }) => ({
      subject: `Tentative d’inscription pour votre compte ${tenant}`,
      paragraphs: [
        `Quelqu’un a tenté de s’inscrire à ${tenant} avec votre adresse e-mail, mais vous avez déjà un compte.`,
        'Si c’était vous, connectez-vous ou réinitialisez votre mot de passe avec le lien ci-dessous. Sinon, ignorez ce message.',
      ],
      action: 'Réinitialiser le mot de passe',
    }),
  },
};
