/**
 * The console screens that e-mailed links open, with `?token=…`: the server writes these
 * links into mails, the console routes them. Reset and invitation share one screen.
 */
export const ACCOUNT_LINK_PATHS = {
  newPassword: '/newpassword',
  verifyEmail: '/verifyemail',
} as const;
