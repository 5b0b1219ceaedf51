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
  },
};
