import type { MailStrings } from './types';

export const en: MailStrings = {
  greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
  footer: (tenant) => `This message was sent by ${tenant} through Tenant Console.`,
  kinds: {
    invite: ({ tenant }) => ({
      subject: `You are invited to ${tenant}`,
      paragraphs: [
        `You have been invited to join ${tenant}. Choose a password to activate your account.`,
        'This link works once and expires in 7 days.',
      ],
      action: 'Set your password',
    }),
    reset: ({ tenant }) => ({
      subject: `Reset your ${tenant} password`,
      paragraphs: [
        `Someone asked to reset the password of your ${tenant} account. Choose a new password with the link below.`,
        'This link works once and expires in 30 minutes. If you did not ask for it, ignore this message: your password stays the same.',
      ],
      action: 'Reset password',
    }),
    verify: ({ tenant }) => ({
      subject: `Confirm your e-mail address for ${tenant}`,
      paragraphs: [
        `Thank you for signing up to ${tenant}. Confirm your e-mail address to finish setting up your account.`,
        'This link works once and expires in 24 hours.',
      ],
      action: 'Confirm e-mail address',
    }),
    passwordChanged: ({ tenant }) => ({
      subject: `Your ${tenant} password was changed`,
      paragraphs: [
        `The password of your ${tenant} account was just changed and every session was signed out.`,
        'If this was not you, reset your password at once and tell your administrator.',
      ],
    }),
    signupExisting: ({ tenant }) => ({
      subject: `Sign-up attempt for your ${tenant} account`,
      paragraphs: [
        `Someone tried to sign up to ${tenant} with your e-mail address, but you already have an account.`,
        'If this was you, sign in or reset your password with the link below. Otherwise, ignore this message.',
      ],
      action: 'Reset password',
    }),
    totpAdded: ({ tenant }) => ({
      subject: `An authenticator app was added to your ${tenant} account`,
      paragraphs: [
        `An authenticator app now protects your ${tenant} account as a second factor.`,
        `If this was not you, change your password at once and tell your administrator.`,
      ],
    }),
    totpRemoved: ({ tenant }) => ({
      subject: `The authenticator app was removed from your ${tenant} account`,
      paragraphs: [
        `The authenticator app of your ${tenant} account was removed, with its recovery codes.`,
        `If this was not you, change your password at once and tell your administrator.`,
      ],
    }),
    passkeyAdded: ({ tenant }) => ({
      subject: `A passkey was added to your ${tenant} account`,
      paragraphs: [
        `A new passkey can now sign in to your ${tenant} account.`,
        `If this was not you, change your password at once and tell your administrator.`,
      ],
    }),
    passkeyRemoved: ({ tenant }) => ({
      subject: `A passkey was removed from your ${tenant} account`,
      paragraphs: [
        `A passkey of your ${tenant} account was removed; it can no longer sign in.`,
        `If this was not you, change your password at once and tell your administrator.`,
      ],
    }),
    recoveryCodeUsed: ({ tenant }) => ({
      subject: `A recovery code of your ${tenant} account was used`,
      paragraphs: [
        `A recovery code was just used to sign in to your ${tenant} account. Each code works once; make new ones on your account page when few are left.`,
        `If this was not you, change your password at once and tell your administrator.`,
      ],
    }),
    secondFactorsReset: ({ tenant }) => ({
      subject: `The second factors of your ${tenant} account were reset`,
      paragraphs: [
        `An administrator of ${tenant} removed the second factors of your account. You will be asked to set one up at your next sign-in if the tenant requires it.`,
        `If this was not you, change your password at once and tell your administrator.`,
      ],
    }),
    newBrowser: ({ tenant, detail }) => ({
      subject: `New sign-in to your ${tenant} account`,
      paragraphs: [
        `Your ${tenant} account was just signed in to from a browser it was not used from before: ${detail ?? ''}.`,
        `If this was not you, change your password at once and tell your administrator.`,
        `You can turn these messages off on your account page.`,
      ],
    }),
  },
};
