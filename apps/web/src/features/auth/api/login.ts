import { useMutation } from '@tanstack/react-query';
import { signInWithPassword } from '../../../lib/code-flow';
import i18n from '../../../lib/i18n';
import { getSession, saveTokens, type Session } from '../../../lib/session';
import { storageKeys } from '../../../lib/storage-keys';
import { getRealm } from '../../../lib/tenant-store';

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
}

export class TenantMissingError extends Error {}

/**
 * Signs in to the tenant's realm with the authorization code flow. "Remember me" remembers
 * the e-mail and keeps the session in localStorage (and the identity provider's browser
 * session past the browser's end); the password is never stored, as a stored password is a
 * leaked one.
 */
export async function login({ email, password, remember }: LoginInput): Promise<Session> {
  const realm = getRealm();
  if (!realm) throw new TenantMissingError('Tenant info is missing or invalid');
  const tokens = await signInWithPassword({
    realm,
    email,
    password,
    remember,
    language: i18n.language,
  });
  if (remember) window.localStorage.setItem(storageKeys.rememberedEmail, email);
  else window.localStorage.removeItem(storageKeys.rememberedEmail);
  saveTokens(tokens, remember);
  const session = getSession();
  if (!session) throw new Error('The sign-in answer held no token.');
  return session;
}

export const getRememberedEmail = () =>
  window.localStorage.getItem(storageKeys.rememberedEmail) ?? '';

export const useLogin = () => useMutation({ mutationFn: login });
