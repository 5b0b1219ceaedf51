import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { TotpSetup } from '@tc/contract/security';
import {
  SECOND_FACTOR_METHODS,
  SIGN_IN_STEP_PATHS,
  type SecondFactorMethod,
} from '@tc/contract/sign-in-step-paths';
import type { SignInStep } from '@tc/contract/sign-in-steps';
import { OAuthRequestError } from './oidc';

/**
 * The hosted sign-in's steps of one authorization request (`/login-actions/{realm}/{uid}`):
 * password, second factor, the enrolment the tenant requires, passkey. The application's sign-in
 * page and the console's own sign-in screen both drive them; each answers what comes next.
 */

/** A step's refusal: the OAuth error, with the HTTP status that says which kind it is. */
export class SignInStepError extends OAuthRequestError {
  constructor(
    readonly status: number,
    error: string,
    description: string,
  ) {
    super(error, description);
  }
}

/** What the sign-in page learns of the application's sign-in request. */
export interface SignInDetails {
  realm: string;
  tenantId?: string;
  prompt: string;
  clientId: string | null;
  clientName: string | null;
  loginHint: string | null;
  uiLocales: string | null;
  /** Whether passkeys work on this address (the tenant's domain is the relying party). */
  passkeys?: boolean;
}

async function refusal(response: Response): Promise<SignInStepError> {
  const body = (await response.json().catch(() => ({}))) as {
    error?: string;
    error_description?: string;
  };
  return new SignInStepError(
    response.status,
    body.error ?? `http_${response.status}`,
    body.error_description ?? body.error ?? response.statusText,
  );
}

async function answerOf(response: Response): Promise<unknown> {
  if (!response.ok) throw await refusal(response);
  return response.json();
}

/** A step's answer; a bare `{ redirectTo }` (the password step before second factors) is done. */
function stepOf(body: unknown): SignInStep {
  const legacy = body as { next?: unknown; redirectTo?: unknown };
  if (legacy.next === undefined && typeof legacy.redirectTo === 'string') {
    return { next: 'done', redirectTo: legacy.redirectTo };
  }
  if (!isSignInStep(body)) throw new SignInStepError(502, 'server_error', 'Unexpected answer');
  return body;
}

/**
 * The answer's shape, checked by hand rather than with the contract's schema: the sign-in
 * pages' script stays without the schema library.
 */
function isSignInStep(body: unknown): body is SignInStep {
  const step = (body ?? {}) as { next?: unknown; redirectTo?: unknown; methods?: unknown };
  const known = (method: unknown) => SECOND_FACTOR_METHODS.includes(method as SecondFactorMethod);
  switch (step.next) {
    case 'done':
      return typeof step.redirectTo === 'string';
    case 'second-factor':
      return Array.isArray(step.methods) && step.methods.every(known);
    case 'enrol':
      return true;
    default:
      return false;
  }
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  credentials: 'same-origin',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  credentials: 'same-origin',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

export interface PasswordStepInput {
  email: string;
  password: string;
  remember: boolean;
}

export interface SignInSteps {
  details(): Promise<SignInDetails>;
  password(input: PasswordStepInput): Promise<SignInStep>;
  google(credential: string): Promise<SignInStep>;
  /** Six digits of the authenticator app, or a recovery code. */
  secondFactor(code: string): Promise<SignInStep>;
  startEnrolment(): Promise<TotpSetup>;
  /** The first code of the new authenticator; answers `done` with the recovery codes. */
  confirmEnrolment(code: string): Promise<SignInStep>;
  /**
   * Asks the browser for a passkey of this tenant and sends its assertion; `remember` keeps
   * the browser session past the browser's end, as for a password (after a password, the
   * password step's choice holds).
   */
  passkey(options?: { remember?: boolean }): Promise<SignInStep>;
}

/** The steps of the sign-in request whose page is at `stepsPath`. */
export function signInStepsAt(stepsPath: string): SignInSteps {
  const at = (path: string, init?: RequestInit) =>
    fetch(`${stepsPath}${path}`, { credentials: 'same-origin', ...init });
  return {
    async details() {
      return (await answerOf(await at(SIGN_IN_STEP_PATHS.details))) as SignInDetails;
    },
    async password({ email, password, remember }) {
      const body = form({ username: email, password, remember: String(remember) });
      return stepOf(await answerOf(await at(SIGN_IN_STEP_PATHS.password, body)));
    },
    async google(credential) {
      return stepOf(await answerOf(await at('/google', json({ credential }))));
    },
    async secondFactor(code) {
      return stepOf(await answerOf(await at(SIGN_IN_STEP_PATHS.secondFactor, form({ code }))));
    },
    async startEnrolment() {
      return (await answerOf(await at(SIGN_IN_STEP_PATHS.enrolTotp, form({})))) as TotpSetup;
    },
    async confirmEnrolment(code) {
      const body = form({ code });
      return stepOf(await answerOf(await at(SIGN_IN_STEP_PATHS.enrolTotpConfirm, body)));
    },
    async passkey({ remember } = {}) {
      const { options } = (await answerOf(
        await at(SIGN_IN_STEP_PATHS.passkeyOptions, json({})),
      )) as {
        options: PublicKeyCredentialRequestOptionsJSON;
      };
      // The WebAuthn helper loads with the first passkey asked for: most sign-ins never do.
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({ optionsJSON: options });
      const body = json(remember === undefined ? { response } : { response, remember });
      return stepOf(await answerOf(await at(SIGN_IN_STEP_PATHS.passkey, body)));
    },
  };
}
