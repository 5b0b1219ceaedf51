/**
 * The password rules the console shows as it types, without the request schemas (and so
 * without zod), for the sign-in pages' small script. Re-exported from `account`.
 */

/** The special characters the Set new password checklist names, as the earlier client did. */
export const PASSWORD_SPECIALS = '!@#$%^&*(),.?":{}|<>';
const SPECIAL = /[!@#$%^&*(),.?":{}|<>]/;

/** Whether the password holds one of `PASSWORD_SPECIALS`. */
export const hasPasswordSpecial = (password: string) => SPECIAL.test(password);

/**
 * The checklist the Set new password screen shows, in the earlier client's words: the rules
 * of a tenant that kept the default policy. Each tenant's own rules (a longer minimum, the
 * special character off, common passwords) are checked by the server when a password is set.
 */
export const passwordChecks = [
  {
    id: 'length',
    label: 'password.too_short',
    test: (password: string) => password.length >= 8,
  },
  {
    id: 'special',
    label: 'password.needs_special',
    test: hasPasswordSpecial,
  },
] as const;

/** "Not the e-mail itself": the one rule that needs the address next to the password. */
export const isPasswordTheEmail = (password: string, email: string) =>
  password.trim().toLowerCase() === email.trim().toLowerCase();

/** The checklist's lines for a password and its confirmation: each rule, then "they match". */
export function passwordChecklist(password: string, confirm: string) {
  return [
    ...passwordChecks.map((check) => ({ id: check.id as string, met: check.test(password) })),
    { id: 'match', met: password.length > 0 && password === confirm },
  ];
}
