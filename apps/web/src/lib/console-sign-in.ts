import { CONSOLE_SIGN_IN_COOKIE, type ConsoleSignInCookie } from '@tc/contract/auth-page';
import type { TotpSetup } from '@tc/contract/security';
import type { SignInStep } from '@tc/contract/sign-in-steps';
import {
  beginAuthorization,
  finishAuthorization,
  resumeAuthorization,
  type CodeFlowTokens,
  type PendingAuthorization,
} from './code-flow';
import {
  signInStepsAt,
  SignInStepError,
  type PasswordStepInput,
  type SignInSteps,
} from './sign-in-steps';

/**
 * One sign-in of the console in progress: the authorization request it made and the steps of
 * that request. The password (or Google, or passkey) step may stop at a second step — a code, or the
 * enrolment the tenant requires — which the same request continues; a `done` answer is turned
 * into tokens by `finish`.
 */
export class ConsoleSignIn {
  private readonly steps: SignInSteps;

  private constructor(private readonly pending: PendingAuthorization) {
    this.steps = signInStepsAt(pending.stepsPath);
  }

  /** Starts with e-mail and password; answers the sign-in and its next step. */
  static async withPassword(
    realm: string,
    input: PasswordStepInput & { language?: string },
  ): Promise<{ signIn: ConsoleSignIn; step: SignInStep }> {
    const signIn = new ConsoleSignIn(
      await beginAuthorization({ realm, loginHint: input.email, language: input.language }),
    );
    return { signIn, step: await signIn.steps.password(input) };
  }

  /**
   * Starts with Google's ID token instead of the password; the same steps follow (a second
   * factor the user has, the enrolment the tenant requires).
   */
  static async withGoogle(
    realm: string,
    input: { credential: string; language?: string },
  ): Promise<{ signIn: ConsoleSignIn; step: SignInStep }> {
    const signIn = new ConsoleSignIn(await beginAuthorization({ realm, language: input.language }));
    return { signIn, step: await signIn.steps.google(input.credential) };
  }

  /**
   * Starts with a passkey, no password: the browser asks for one of this tenant's passkeys.
   * Where the sign-in request says passkeys do not work on this address, says so at once.
   */
  static async withPasskey(
    realm: string,
    input: { language?: string; remember: boolean },
  ): Promise<{ signIn: ConsoleSignIn; step: SignInStep }> {
    const signIn = new ConsoleSignIn(await beginAuthorization({ realm, language: input.language }));
    const details = await signIn.steps.details();
    if (details.passkeys === false) {
      throw new SignInStepError(400, 'passkeys_unavailable', 'Passkeys are not offered here');
    }
    return { signIn, step: await signIn.steps.passkey({ remember: input.remember }) };
  }

  /**
   * Continues a sign-in the server began for a form posted without script (its second step
   * now asked for on the page), from what it kept in the console's sign-in cookie.
   */
  static resume(saved: ConsoleSignInCookie): ConsoleSignIn {
    return new ConsoleSignIn(resumeAuthorization(saved));
  }

  submitSecondFactor(code: string): Promise<SignInStep> {
    return this.steps.secondFactor(code);
  }

  /** A passkey as the second factor, after the password, in the same request. */
  submitPasskey(): Promise<SignInStep> {
    return this.steps.passkey();
  }

  startEnrolment(): Promise<TotpSetup> {
    return this.steps.startEnrolment();
  }

  confirmEnrolment(code: string): Promise<SignInStep> {
    return this.steps.confirmEnrolment(code);
  }

  /** After `done`: back into the authorization request for the code, and the tokens. */
  finish(redirectTo: string): Promise<CodeFlowTokens> {
    return finishAuthorization(this.pending, redirectTo);
  }
}

/**
 * The console's sign-in the server began for a form posted without script, as its cookie
 * keeps it (base64url of the JSON); null when there is none or it cannot be read.
 */
export function readConsoleSignInCookie(): ConsoleSignInCookie | null {
  const prefix = `${CONSOLE_SIGN_IN_COOKIE}=`;
  const raw = document.cookie
    .split('; ')
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
  if (!raw) return null;
  try {
    const base64 = raw.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const saved = JSON.parse(new TextDecoder().decode(bytes)) as Partial<ConsoleSignInCookie>;
    const texts = [saved.realm, saved.verifier, saved.state, saved.nonce, saved.stepsPath];
    if (texts.some((text) => typeof text !== 'string')) return null;
    return { ...(saved as ConsoleSignInCookie), remember: saved.remember === true };
  } catch {
    return null;
  }
}

/** The sign-in is over (finished or abandoned): its cookie goes. */
export function clearConsoleSignInCookie(): void {
  document.cookie = `${CONSOLE_SIGN_IN_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}
