import { z } from 'zod';
import { envelope } from './problem';
import { singleLineText } from './text';

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

/**
 * A new password as a request carries it: only its bounds, since the rules are the tenant's
 * (a tenant may turn the special character off) and the server checks them. The upper bound
 * keeps hashing cheap for absurd inputs.
 */
export const passwordSchema = singleLineText({ error: 'password.required' })
  .min(1, 'password.required')
  .max(256, 'password.too_long');

/** "Not the e-mail itself": the one rule that needs the address next to the password. */
export const isPasswordTheEmail = (password: string, email: string) =>
  password.trim().toLowerCase() === email.trim().toLowerCase();

const emailSchema = singleLineText({ error: 'email.required' })
  .trim()
  .toLowerCase()
  .max(254, 'email.too_long')
  .check(z.email('email.invalid'));

/** Single-use tokens are 32 random bytes in base64url (43 characters). */
const tokenSchema = singleLineText({ error: 'link.malformed' })
  .min(1, 'link.malformed')
  .max(200, 'link.malformed');

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
    fullName: singleLineText({ error: 'full_name.required' })
      .trim()
      .min(1, 'full_name.required')
      .max(200, 'name.too_long'),
    email: emailSchema,
    password: passwordSchema,
  })
  .refine((body) => !isPasswordTheEmail(body.password, body.email), {
    message: 'password.is_email',
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
