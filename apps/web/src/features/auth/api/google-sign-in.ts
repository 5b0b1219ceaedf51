import type { SignInStep } from '@tc/contract/sign-in-steps';
import type { SignInDriver } from './sign-in-driver';
import { useAction } from './use-action';

/**
 * "Sign in with Google" on the sign-in and sign-up screens: Google's ID token is the first
 * step of the sign-in's steps, the console's as an application's, so a user with a second
 * factor gives it after Google as after a password. (POST /auth/google, kept for API clients,
 * gives no tokens to such an account.)
 */
export const useGoogleSignIn = (
  driver: SignInDriver,
  advance: (step: SignInStep) => Promise<void>,
) => useAction(async (credential: string) => advance(await driver.google(credential)));
