import { z } from 'zod';
import { envelope } from './problem';
import { singleLineText } from './text';

/**
 * Second factors, sessions and the tenant's sign-in policy: what the account page, the
 * Users screen's security dialog and the Settings page read and send.
 */

/** Who must have a second factor before getting tokens. */
export const MFA_POLICIES = ['optional', 'admins', 'everyone'] as const;
export const mfaPolicySchema = z.enum(MFA_POLICIES);
export type MfaPolicy = z.infer<typeof mfaPolicySchema>;

export const securityPolicySchema = z
  .object({
    mfaPolicy: mfaPolicySchema,
    passwordMinLength: z
      .number()
      .int('policy.min_length_range')
      .min(8, 'policy.min_length_range')
      .max(128, 'policy.min_length_range'),
    /** One of the special characters the password checklist names. */
    passwordRequireSpecial: z.boolean(),
    /** Refuse passwords on the common-password list, and ones made of the e-mail or name. */
    passwordRefuseCommon: z.boolean(),
  })
  .meta({ id: 'SecurityPolicy' });
export type SecurityPolicy = z.infer<typeof securityPolicySchema>;

/** The password rules anyone about to choose a password may read (no secret in them). */
export const passwordRulesSchema = securityPolicySchema
  .pick({ passwordMinLength: true, passwordRequireSpecial: true, passwordRefuseCommon: true })
  .meta({ id: 'PasswordRules' });
export type PasswordRules = z.infer<typeof passwordRulesSchema>;

/** A six-digit code of an authenticator app, or a recovery code (`XXXX-XXXX-XXXX-XXXX`). */
export const secondFactorCodeSchema = singleLineText({ error: 'mfa.code_required' })
  .trim()
  .min(1, 'mfa.code_required')
  .max(32, 'mfa.code_invalid');

export const accountProfileSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    /** en, de, fr or it; null follows the browser. */
    locale: z.string().nullable(),
    notifyNewBrowser: z.boolean(),
  })
  .meta({ id: 'AccountProfile' });
export type AccountProfile = z.infer<typeof accountProfileSchema>;

const profileName = (field: 'first_name') =>
  singleLineText({ error: `user.${field}_required` })
    .trim()
    .min(1, `user.${field}_required`)
    .max(100, `user.${field}_too_long`);

export const accountProfileUpdateSchema = z
  .object({
    firstName: profileName('first_name'),
    // Accounts made from an e-mail alone (the first administrator, Google) may have none.
    lastName: singleLineText({ error: 'user.last_name_required' })
      .trim()
      .max(100, 'user.last_name_too_long'),
    locale: z.enum(['en', 'de', 'fr', 'it'], { error: 'account.locale_invalid' }).nullable(),
    notifyNewBrowser: z.boolean(),
  })
  .meta({ id: 'AccountProfileUpdate' });
export type AccountProfileUpdate = z.infer<typeof accountProfileUpdateSchema>;

/** The new password is checked against the tenant's policy on the server. */
export const changePasswordRequestSchema = z
  .object({
    currentPassword: singleLineText({ error: 'account.current_password_required' })
      .min(1, 'account.current_password_required')
      .max(1024, 'password.too_long'),
    newPassword: singleLineText({ error: 'password.required' })
      .min(1, 'password.required')
      .max(256, 'password.too_long'),
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const passkeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyNameSchema = singleLineText({ error: 'passkey.name_required' })
  .trim()
  .min(1, 'passkey.name_required')
  .max(100, 'passkey.name_too_long');

/** What a user has, and whether the tenant's policy requires a second factor of them. */
export const secondFactorsSchema = z
  .object({
    totp: z.boolean(),
    recoveryCodesLeft: z.number().int(),
    passkeys: z.array(passkeySchema),
    required: z.boolean(),
  })
  .meta({ id: 'SecondFactors' });
export type SecondFactors = z.infer<typeof secondFactorsSchema>;

export const totpSetupSchema = z
  .object({
    /** Base32, for typing into the app. */
    secret: z.string(),
    /** otpauth:// URI, drawn as a QR code by the browser. */
    otpauthUri: z.string(),
  })
  .meta({ id: 'TotpSetup' });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export const totpConfirmRequestSchema = z
  .object({ code: secondFactorCodeSchema })
  .meta({ id: 'TotpConfirmRequest' });

/** Shown once: only their hashes are kept. */
export const recoveryCodesSchema = z
  .object({ recoveryCodes: z.array(z.string()) })
  .meta({ id: 'RecoveryCodes' });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** WebAuthn's JSON forms (`@simplewebauthn`), passed through as the browser made them. */
const webAuthnJson = z.record(z.string(), z.unknown());

export const passkeyRegistrationOptionsSchema = z
  .object({ options: webAuthnJson })
  .meta({ id: 'PasskeyRegistrationOptions' });

export const passkeyRegisterRequestSchema = z
  .object({ name: passkeyNameSchema, response: webAuthnJson })
  .meta({ id: 'PasskeyRegisterRequest' });

/** WebAuthn request options for proving oneself again with one of one's passkeys. */
export const passkeyRequestOptionsSchema = z
  .object({ options: webAuthnJson })
  .meta({ id: 'PasskeyRequestOptions' });

/**
 * A proof of the signed-in user, given again before a security change of the account
 * (docs/decisions/0018-recent-proof-for-account-security.md): exactly one of the password,
 * a code of the authenticator app or a recovery code, or a passkey's assertion.
 */
export const reverifyRequestSchema = z
  // Strict: a proof comes alone, so a body carrying anything else is no proof.
  .strictObject({
    password: singleLineText({ error: 'account.current_password_required' })
      .min(1, 'account.current_password_required')
      .max(1024, 'password.too_long')
      .optional(),
    code: secondFactorCodeSchema.optional(),
    passkey: webAuthnJson.optional(),
  })
  .refine(
    (proof) =>
      [proof.password, proof.code, proof.passkey].filter((p) => p !== undefined).length === 1,
    { message: 'account.proof_required' },
  )
  .meta({ id: 'ReverifyRequest' });
export type ReverifyRequest = z.infer<typeof reverifyRequestSchema>;

export const passkeyRenameRequestSchema = z
  .object({ name: passkeyNameSchema })
  .meta({ id: 'PasskeyRenameRequest' });

export const sessionSchema = z
  .object({
    id: z.uuid(),
    /** Browser and operating system read from the user agent, e.g. "Chrome 131", "Linux". */
    browser: z.string().nullable(),
    os: z.string().nullable(),
    clientId: z.string(),
    clientName: z.string().nullable(),
    ipAddress: z.string().nullable(),
    createdAt: z.iso.datetime(),
    lastActiveAt: z.iso.datetime(),
    /** The session of the request that asked. */
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

/** An administrator's view of one user's sign-in security. */
export const userSecuritySchema = z
  .object({
    sessions: z.array(sessionSchema),
    secondFactors: secondFactorsSchema,
  })
  .meta({ id: 'UserSecurity' });
export type UserSecurity = z.infer<typeof userSecuritySchema>;

export const sessionParamsSchema = z.object({ id: z.uuid('id.invalid') });
export const userSessionParamsSchema = z.object({
  id: z.uuid('id.invalid'),
  sessionId: z.uuid('id.invalid'),
});

export const revokedSchema = envelope(z.object({ revoked: z.number().int() }));
