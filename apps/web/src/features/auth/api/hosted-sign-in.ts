import { hostedSignInPath } from '@tc/contract/links';
import { signInStepsAt } from '../../../lib/sign-in-steps';
import type { SignInDriver } from './sign-in-driver';

// The request's details (login hint, whether passkeys work here) come with the page's state.

export type HostedSignInDriver = SignInDriver;

/**
 * An application's sign-in: every step posts to the sign-in request's routes (form posts, as
 * the identity provider's other endpoints take, or JSON), and `done` sends the browser back
 * into the request, which returns it to the application with a code.
 */
export function hostedSignInDriver(realm: string, uid: string): HostedSignInDriver {
  const steps = signInStepsAt(hostedSignInPath(realm, uid));
  return {
    password: (input) => steps.password(input),
    google: (credential) => steps.google(credential),
    passkey: (options) => steps.passkey(options),
    secondFactor: (code) => steps.secondFactor(code),
    secondFactorPasskey: () => steps.passkey(),
    startEnrolment: () => steps.startEnrolment(),
    confirmEnrolment: (code) => steps.confirmEnrolment(code),
    finish(redirectTo) {
      window.location.assign(redirectTo);
      return Promise.resolve(null);
    },
  };
}
