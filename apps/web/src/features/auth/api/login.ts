import {
  clearConsoleSignInCookie,
  ConsoleSignIn,
  readConsoleSignInCookie,
} from '../../../lib/console-sign-in';
import { getSession, saveTokens } from '../../../lib/session';
import { storageKeys } from '../../../lib/storage-keys';
import type { SignInDriver } from './sign-in-driver';

export type { LoginInput } from './sign-in-driver';

export class TenantMissingError extends Error {}

export interface ConsoleSignInOptions {
  /** The tenant's realm, which the console signs in to; null: no tenant at this address. */
  realm: string | null;
  /** The page's language, asked of the identity provider for its answers. */
  language: string;
  /**
   * The page opened at a second step of a sign-in the server began for a form posted without
   * script: that sign-in (its cookie) is continued.
   */
  resume?: boolean;
}

/**
 * The console's own sign-in to the tenant's realm, with the authorization code flow: one
 * sign-in in progress at a time, continued by the second step when the password asks for one.
 * "Remember me" remembers the e-mail and keeps the session in localStorage (and the identity
 * provider's browser session past the browser's end); the password is never stored, as a
 * stored password is a leaked one.
 */
export function consoleSignInDriver(options: ConsoleSignInOptions): SignInDriver {
  let current: ConsoleSignIn | undefined;
  let email: string | undefined;
  let remember = false;
  let resumable = options.resume === true;
  const realm = (): string => {
    if (!options.realm) throw new TenantMissingError('Tenant info is missing or invalid');
    return options.realm;
  };
  const start = (signIn: ConsoleSignIn, typed: string | undefined, kept: boolean) => {
    // A sign-in begun here replaces the one the server began.
    if (resumable) clearConsoleSignInCookie();
    resumable = false;
    [current, email, remember] = [signIn, typed, kept];
  };
  const pending = () => {
    if (!current && resumable) {
      // Read at the first step that needs it, in the browser (the page is rendered without).
      const saved = readConsoleSignInCookie();
      if (saved) [current, remember] = [ConsoleSignIn.resume(saved), saved.remember];
    }
    if (!current) throw new Error('No sign-in is in progress.');
    return current;
  };
  const language = options.language;
  return {
    async password(input) {
      const started = await ConsoleSignIn.withPassword(realm(), { ...input, language });
      start(started.signIn, input.email, input.remember);
      return started.step;
    },
    async google(credential) {
      const started = await ConsoleSignIn.withGoogle(realm(), { credential, language });
      // Google offers no "remember me": the session ends with the browser.
      start(started.signIn, undefined, false);
      return started.step;
    },
    async passkey({ remember: kept }) {
      const started = await ConsoleSignIn.withPasskey(realm(), { language, remember: kept });
      start(started.signIn, undefined, kept);
      return started.step;
    },
    secondFactor: (code) => pending().submitSecondFactor(code),
    secondFactorPasskey: () => pending().submitPasskey(),
    startEnrolment: () => pending().startEnrolment(),
    confirmEnrolment: (code) => pending().confirmEnrolment(code),
    async finish(redirectTo) {
      const tokens = await pending().finish(redirectTo);
      current = undefined;
      if (resumable) clearConsoleSignInCookie();
      resumable = false;
      if (email !== undefined) {
        if (remember) window.localStorage.setItem(storageKeys.rememberedEmail, email);
        else window.localStorage.removeItem(storageKeys.rememberedEmail);
      }
      saveTokens(tokens, remember);
      const session = getSession();
      if (!session) throw new Error('The sign-in answer held no token.');
      return session;
    },
  };
}

/** The e-mail "Remember me" kept on this browser, '' when none (or no storage, as on the server). */
export const getRememberedEmail = () =>
  typeof window === 'undefined'
    ? ''
    : (window.localStorage.getItem(storageKeys.rememberedEmail) ?? '');
