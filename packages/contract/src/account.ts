import { z } from 'zod';
import { envelope } from './problem';
import { isPasswordTheEmail } from './password-rules';
import { singleLineText } from './text';

export {
  hasPasswordSpecial,
  isPasswordTheEmail,
  PASSWORD_SPECIALS,
  passwordChecks,
} from './password-rules';

/**
 * A new password as a request carries it: only its bounds, since the rules are the tenant's
 * (a tenant may turn the special character off) and the server checks them. The upper bound
 * keeps hashing cheap for absurd inputs.
 */
export const passwordSchema = singleLineText({ error: 'password.required' })
  .min(1, 'password.required')
  .max(256, 'password.too_long');

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
