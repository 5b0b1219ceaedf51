import { ConsoleSignIn } from '../../../lib/console-sign-in';
import i18n from '../../../lib/i18n';
import { getSession, saveTokens } from '../../../lib/session';
import { storageKeys } from '../../../lib/storage-keys';
import { getRealm } from '../../../lib/tenant-store';
import type { SignInDriver } from './sign-in-driver';

export type { LoginInput } from './sign-in-driver';

export class TenantMissingError extends Error {}

function realm(): string {
  const name = getRealm();
  if (!name) throw new TenantMissingError('Tenant info is missing or invalid');
  return name;
}

/**
 * The console's own sign-in to the tenant's realm, with the authorization code flow: one
 * sign-in in progress at a time, continued by the second step when the password asks for one.
 * "Remember me" remembers the e-mail and keeps the session in localStorage (and the identity
 * provider's browser session past the browser's end); the password is never stored, as a
 * stored password is a leaked one.
 */
export function consoleSignInDriver(): SignInDriver {
  let current: ConsoleSignIn | undefined;
  let email: string | undefined;
  let remember = false;
  const pending = () => {
    if (!current) throw new Error('No sign-in is in progress.');
    return current;
  };
  return {
    async password(input) {
      const started = await ConsoleSignIn.withPassword(realm(), {
        ...input,
        language: i18n.language,
      });
      [current, email, remember] = [started.signIn, input.email, input.remember];
      return started.step;
    },
    async google(credential) {
      const started = await ConsoleSignIn.withGoogle(realm(), {
        credential,
        language: i18n.language,
      });
      // Google offers no "remember me": the session ends with the browser.
      [current, email, remember] = [started.signIn, undefined, false];
      return started.step;
    },
    async passkey(options) {
      const started = await ConsoleSignIn.withPasskey(realm(), {
        language: i18n.language,
        remember: options.remember,
      });
      [current, email, remember] = [started.signIn, undefined, options.remember];
      return started.step;
    },
    secondFactor: (code) => pending().submitSecondFactor(code),
    secondFactorPasskey: () => pending().submitPasskey(),
    startEnrolment: () => pending().startEnrolment(),
    confirmEnrolment: (code) => pending().confirmEnrolment(code),
    async finish(redirectTo) {
      const tokens = await pending().finish(redirectTo);
      current = undefined;
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

export const getRememberedEmail = () =>
  window.localStorage.getItem(storageKeys.rememberedEmail) ?? '';
