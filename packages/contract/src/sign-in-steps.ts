import { z } from 'zod';

/**
 * What the hosted sign-in page's steps answer (`/login-actions/{realm}/{uid}/…`). After the
 * password the page either goes on to the application (`done`), asks for a second factor,
 * or takes the user through enrolment because the tenant requires a second factor.
 */
export const SECOND_FACTOR_METHODS = ['totp', 'recovery-code', 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

export const signInStepSchema = z.discriminatedUnion('next', [
  z.object({
    next: z.literal('done'),
    /** Where the browser goes next: back into the authorization request. */
    redirectTo: z.string(),
    /** Only after an enrolment: ten recovery codes, shown once. */
    recoveryCodes: z.array(z.string()).optional(),
  }),
  z.object({
    next: z.literal('second-factor'),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  }),
  z.object({ next: z.literal('enrol') }),
]);
export type SignInStep = z.infer<typeof signInStepSchema>;

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
} as const;
