import type { TotpSetup } from '@tc/contract/security';
import type { SignInStep } from '@tc/contract/sign-in-steps';
import type { Session } from '../../../lib/session';
import type { PasswordStepInput } from '../../../lib/sign-in-steps';

export type LoginInput = PasswordStepInput;

/**
 * What the sign-in screen drives, the same for the console's own sign-in and an application's
 * (hosted) one: each step answers what comes next; `finish` is where the two differ — the
 * console exchanges the code for its tokens, the hosted page sends the browser back.
 */
export interface SignInDriver {
  password(input: LoginInput): Promise<SignInStep>;
  /**
   * Google's ID token instead of e-mail and password: a first factor like the password, so the
   * second factor the user has, or the enrolment the tenant requires, follows as after it.
   */
  google(credential: string): Promise<SignInStep>;
  /** Passwordless: a passkey instead of e-mail and password. */
  passkey(options: { remember: boolean }): Promise<SignInStep>;
  /** Six digits of the authenticator app, or a recovery code. */
  secondFactor(code: string): Promise<SignInStep>;
  /** A passkey as the second factor, after the password. */
  secondFactorPasskey(): Promise<SignInStep>;
  startEnrolment(): Promise<TotpSetup>;
  confirmEnrolment(code: string): Promise<SignInStep>;
  /**
   * After `done`: signs the console in (its session), or takes the browser back to the
   * application (null: the page is left).
   */
  finish(redirectTo: string): Promise<Session | null>;
}
