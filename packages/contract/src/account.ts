import { z } from 'zod';
import { envelope } from './problem';
import { singleLineText } from './text';

/** The special characters the Set new password checklist names, as the earlier client did. */
export const PASSWORD_SPECIALS = '!@#$%^&*(),.?":{}|<>';
const SPECIAL = /[!@#$%^&*(),.?":{}|<>]/;

/**
 * The checklist the Set new password screen shows, in the earlier client's words; the
 * server enforces the same rules through `passwordSchema`, so screen and API never disagree.
 */
export const passwordChecks = [
  {
    id: 'length',
    label: 'Must be at least 8 characters',
    test: (password: string) => password.length >= 8,
  },
  {
    id: 'special',
    label: 'Must contain one special character',
    test: (password: string) => SPECIAL.test(password),
  },
] as const;

/** The password policy; the upper bound only keeps hashing cheap for absurd inputs. */
export const passwordSchema = singleLineText({ error: 'Enter a password.' })
  .min(8, 'Must be at least 8 characters')
  .max(256, 'The password can be at most 256 characters long.')
  .regex(SPECIAL, 'Must contain one special character');

/** "Not the e-mail itself": the one rule that needs the address next to the password. */
export const isPasswordTheEmail = (password: string, email: string) =>
  password.trim().toLowerCase() === email.trim().toLowerCase();
export const PASSWORD_IS_EMAIL = 'The password must not be your e-mail address.';

const emailSchema = singleLineText({ error: 'Enter an e-mail address.' })
  .trim()
  .toLowerCase()
  .max(254, 'The e-mail address can be at most 254 characters long.')
  .check(z.email('Enter a valid e-mail address.'));

/** Single-use tokens are 32 random bytes in base64url (43 characters). */
const tokenSchema = singleLineText({ error: 'This link is not valid.' })
  .min(1, 'This link is not valid.')
  .max(200, 'This link is not valid.');

export const forgotPasswordRequestSchema = z
  .object({ email: emailSchema })
  .meta({ id: 'ForgotPasswordRequest' });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z
  .object({ token: tokenSchema, password: passwordSchema })
  .meta({ id: 'ResetPasswordRequest' });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const signupRequestSchema = z
  .object({
    fullName: singleLineText({ error: 'Enter your full name.' })
      .trim()
      .min(1, 'Enter your full name.')
      .max(200, 'The name can be at most 200 characters long.'),
    email: emailSchema,
    password: passwordSchema,
  })
  .refine((body) => !isPasswordTheEmail(body.password, body.email), {
    message: PASSWORD_IS_EMAIL,
    path: ['password'],
  })
  .meta({ id: 'SignupRequest' });
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const verifyEmailRequestSchema = z
  .object({ token: tokenSchema })
  .meta({ id: 'VerifyEmailRequest' });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

/**
 * The answer to forgot-password and sign-up: the same words whether or not the address is
 * known, so the answer never tells whether an account exists.
 */
export const acceptedResponseSchema = envelope(
  z.object({ message: z.string() }).meta({ id: 'Accepted' }),
);
export type AcceptedResponse = z.infer<typeof acceptedResponseSchema>;

/** A completed reset, invitation or verification: which account, so sign-in can pre-fill it. */
export const accountDoneResponseSchema = envelope(
  z.object({ email: z.string(), realm: z.string() }).meta({ id: 'AccountDone' }),
);
export type AccountDoneResponse = z.infer<typeof accountDoneResponseSchema>;
