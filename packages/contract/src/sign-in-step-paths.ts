/**
 * The hosted sign-in's step addresses and second-factor methods, without the schema library:
 * the sign-in pages' script imports these and checks answers itself, so it stays small.
 */
export const SECOND_FACTOR_METHODS = ['totp', 'recovery-code', 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The paths of the steps, under `/login-actions/{realm}/{uid}`. */
export const SIGN_IN_STEP_PATHS = {
  details: '/details',
  /** Form: username, password, remember. */
  password: '/login',
  /** Form: code (six digits, or a recovery code). */
  secondFactor: '/second-factor',
  /** Answers `{ secret, otpauthUri }` for the enrolment the tenant requires. */
  enrolTotp: '/enrol/totp',
  /** Form: code. Answers `done` with the recovery codes. */
  enrolTotpConfirm: '/enrol/totp/confirm',
  /** Answers `{ options }`: WebAuthn request options for a discoverable credential. */
  passkeyOptions: '/passkey/options',
  /** JSON: `{ response }`, the browser's assertion. Answers `done`. */
  passkey: '/passkey',
  /**
   * Form: decision (`allow` or `deny`), for an application that is not first-party asking
   * for what the user has not allowed it yet. Answers `done`.
   */
  consent: '/consent',
} as const;

/** What an application may ask for, in the order the consent page lists it. */
export const CONSENT_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
export type ConsentScope = (typeof CONSENT_SCOPES)[number];
