import type { AuthPageName } from '@tc/contract/auth-page';

/**
 * The module of each sign-in page (in components/, without `.tsx`). Plain data, so the build
 * can name each page's chunks too (the server preloads them with the page).
 */
export const AUTH_PAGE_FILES: Record<AuthPageName, string> = {
  signIn: 'sign-in-page',
  hostedSignIn: 'hosted-sign-in-page',
  consent: 'consent-page',
  signUp: 'sign-up-page',
  forgotPassword: 'forgot-password-page',
  checkEmail: 'check-email-page',
  newPassword: 'new-password-page',
  passwordReset: 'password-reset-page',
  verifyEmail: 'verify-email-page',
  callback: 'callback-page',
};
