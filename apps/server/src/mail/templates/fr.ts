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
    totpAdded: ({ tenant }) => ({
      subject: `Une application d’authentification a été ajoutée à votre compte ${tenant}`,
      paragraphs: [
        `Une application d’authentification protège désormais votre compte ${tenant} comme second facteur.`,
        `Si ce n’était pas vous, changez votre mot de passe immédiatement et prévenez votre administrateur.`,
      ],
    }),
    totpRemoved: ({ tenant }) => ({
      subject: `L’application d’authentification a été retirée de votre compte ${tenant}`,
      paragraphs: [
        `L’application d’authentification de votre compte ${tenant} a été retirée, avec ses codes de récupération.`,
        `Si ce n’était pas vous, changez votre mot de passe immédiatement et prévenez votre administrateur.`,
      ],
    }),
    passkeyAdded: ({ tenant }) => ({
      subject: `Une clé d’accès a été ajoutée à votre compte ${tenant}`,
      paragraphs: [
        `Une nouvelle clé d’accès peut désormais se connecter à votre compte ${tenant}.`,
        `Si ce n’était pas vous, changez votre mot de passe immédiatement et prévenez votre administrateur.`,
      ],
    }),
    passkeyRemoved: ({ tenant }) => ({
      subject: `Une clé d’accès a été retirée de votre compte ${tenant}`,
      paragraphs: [
        `Une clé d’accès de votre compte ${tenant} a été retirée ; elle ne peut plus se connecter.`,
        `Si ce n’était pas vous, changez votre mot de passe immédiatement et prévenez votre administrateur.`,
      ],
    }),
    recoveryCodeUsed: ({ tenant }) => ({
      subject: `Un code de récupération de votre compte ${tenant} a été utilisé`,
      paragraphs: [
        `Un code de récupération vient d’être utilisé pour vous connecter à votre compte ${tenant}. Chaque code ne fonctionne qu’une fois ; créez-en de nouveaux sur la page de votre compte quand il en reste peu.`,
        `Si ce n’était pas vous, changez votre mot de passe immédiatement et prévenez votre administrateur.`,
      ],
    }),
    secondFactorsReset: ({ tenant }) => ({
      subject: `Les seconds facteurs de votre compte ${tenant} ont été réinitialisés`,
      paragraphs: [
        `Un administrateur de ${tenant} a retiré les seconds facteurs de votre compte. Si le locataire en exige un, il vous sera demandé d’en configurer un à votre prochaine connexion.`,
        `Si ce n’était pas vous, changez votre mot de passe immédiatement et prévenez votre administrateur.`,
      ],
    }),
    newBrowser: ({ tenant, detail }) => ({
      subject: `Nouvelle connexion à votre compte ${tenant}`,
      paragraphs: [
        `Votre compte ${tenant} vient d’être utilisé depuis un navigateur inconnu jusqu’ici : ${detail ?? ''}.`,
        `Si ce n’était pas vous, changez votre mot de passe immédiatement et prévenez votre administrateur.`,
        `Vous pouvez désactiver ces messages sur la page de votre compte.`,
      ],
    }),
  },
};
