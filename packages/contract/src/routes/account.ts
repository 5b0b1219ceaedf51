import { z } from 'zod';
import { envelope } from '../problem';
import { defineRoute } from '../route';
import {
  accountProfileSchema,
  accountProfileUpdateSchema,
  changePasswordRequestSchema,
  passkeyRegisterRequestSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRenameRequestSchema,
  passkeyRequestOptionsSchema,
  passkeySchema,
  recoveryCodesSchema,
  reverifyRequestSchema,
  revokedSchema,
  secondFactorsSchema,
  sessionParamsSchema,
  sessionSchema,
  totpConfirmRequestSchema,
  totpSetupSchema,
} from '../security';

const okSchema = envelope(z.object({ ok: z.literal(true) }));

/** The signed-in user's own account: profile, password, second factors, sessions. */
export const accountRoutes = {
  profile: defineRoute({
    method: 'GET',
    path: '/account',
    response: envelope(accountProfileSchema),
    permission: 'authenticated',
    summary: "The signed-in user's profile",
  }),
  updateProfile: defineRoute({
    method: 'PUT',
    path: '/account',
    body: accountProfileUpdateSchema,
    response: envelope(accountProfileSchema),
    permission: 'authenticated',
    summary: 'Changes name, language and the new-browser mail',
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: '/account/password',
    body: changePasswordRequestSchema,
    response: okSchema,
    permission: 'authenticated',
    problems: [429],
    summary: 'Changes the password (the current one is required); ends every other session',
  }),
  // The sign-in-security routes below the password answer 403 auth.reverification_required to
  // a session whose last proof is older than the server's window; these two renew it.
  reverifyOptions: defineRoute({
    method: 'POST',
    path: '/account/reverify/options',
    response: envelope(passkeyRequestOptionsSchema),
    permission: 'authenticated',
    // 409: the console is not on the tenant's own address, which passkeys are bound to.
    problems: [409],
    summary: 'WebAuthn request options for confirming it is you with a passkey',
  }),
  reverify: defineRoute({
    method: 'POST',
    path: '/account/reverify',
    body: reverifyRequestSchema,
    response: okSchema,
    permission: 'authenticated',
    // 409: a passkey's proof from outside the tenant's own address.
    problems: [409, 429],
    summary:
      'Confirms it is you (password, code or passkey), counted as a sign-in attempt; this session may then change its sign-in security for a few minutes',
  }),
  secondFactors: defineRoute({
    method: 'GET',
    path: '/account/mfa',
    response: envelope(secondFactorsSchema),
    permission: 'authenticated',
    summary: 'The second factors of the signed-in user',
  }),
  totpSetup: defineRoute({
    method: 'POST',
    path: '/account/mfa/totp/setup',
    response: envelope(totpSetupSchema),
    permission: 'authenticated',
    problems: [403, 409],
    summary:
      'Starts enrolling an authenticator app: a new secret, unconfirmed until its first code',
  }),
  totpConfirm: defineRoute({
    method: 'POST',
    path: '/account/mfa/totp/confirm',
    body: totpConfirmRequestSchema,
    response: envelope(recoveryCodesSchema),
    permission: 'authenticated',
    problems: [403, 409, 429],
    summary: 'Confirms the authenticator app with its first code; answers ten recovery codes, once',
  }),
  totpRemove: defineRoute({
    method: 'DELETE',
    path: '/account/mfa/totp',
    response: okSchema,
    permission: 'authenticated',
    problems: [403, 404, 409],
    summary: 'Removes the authenticator app and the recovery codes',
  }),
  recoveryCodes: defineRoute({
    method: 'POST',
    path: '/account/mfa/recovery-codes',
    response: envelope(recoveryCodesSchema),
    permission: 'authenticated',
    problems: [403, 409],
    summary: 'Replaces the recovery codes by ten new ones, shown once',
  }),
  passkeyOptions: defineRoute({
    method: 'POST',
    path: '/account/passkeys/options',
    response: envelope(passkeyRegistrationOptionsSchema),
    permission: 'authenticated',
    // 409: the console is not on the tenant's own address, which passkeys are bound to.
    problems: [403, 409],
    summary: 'WebAuthn registration options for a new passkey',
  }),
  passkeyRegister: defineRoute({
    method: 'POST',
    path: '/account/passkeys',
    body: passkeyRegisterRequestSchema,
    response: envelope(passkeySchema),
    status: 201,
    permission: 'authenticated',
    problems: [403, 409],
    summary: "Registers a passkey from the browser's attestation",
  }),
  passkeyRename: defineRoute({
    method: 'PUT',
    path: '/account/passkeys/:id',
    params: sessionParamsSchema,
    body: passkeyRenameRequestSchema,
    response: envelope(passkeySchema),
    permission: 'authenticated',
    problems: [404],
    summary: 'Renames a passkey',
  }),
  passkeyRemove: defineRoute({
    method: 'DELETE',
    path: '/account/passkeys/:id',
    params: sessionParamsSchema,
    response: okSchema,
    permission: 'authenticated',
    problems: [403, 404, 409],
    summary: 'Removes a passkey',
  }),
  sessions: defineRoute({
    method: 'GET',
    path: '/account/sessions',
    response: envelope(z.array(sessionSchema)),
    permission: 'authenticated',
    summary: "The signed-in user's open sessions, this one marked current",
  }),
  revokeSession: defineRoute({
    method: 'POST',
    path: '/account/sessions/:id/revoke',
    params: sessionParamsSchema,
    response: revokedSchema,
    permission: 'authenticated',
    problems: [404],
    summary: 'Ends one session: its access tokens fail at once, its refresh token is dead',
  }),
  revokeOtherSessions: defineRoute({
    method: 'POST',
    path: '/account/sessions/revoke-others',
    response: revokedSchema,
    permission: 'authenticated',
    summary: 'Ends every session but this one',
  }),
};
