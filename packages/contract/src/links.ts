/**
 * The console screens that e-mailed links open, with `?token=…`: the server writes these
 * links into mails, the console routes them. Reset and invitation share one screen.
 */
export const ACCOUNT_LINK_PATHS = {
  newPassword: '/newpassword',
  verifyEmail: '/verifyemail',
} as const;

/**
 * The console as a client of its own realm (authorization code + PKCE): where the identity
 * provider sends the browser back with a code, and after signing out.
 */
export const CONSOLE_CLIENT_PATHS = {
  callback: '/auth/callback',
  signedOut: '/login',
} as const;

/**
 * The hosted sign-in screen the authorization endpoint shows: the console's own sign-in page.
 * The routes it calls live below its path (`…/details`, `…/login`), so that the provider's
 * interaction cookie, scoped to this path, reaches them and nothing else.
 */
export const HOSTED_SIGN_IN_PATH = '/login-actions/:realm/:uid';
export const hostedSignInPath = (realm: string, uid: string) =>
  `/login-actions/${encodeURIComponent(realm)}/${encodeURIComponent(uid)}`;
