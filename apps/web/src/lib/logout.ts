import { useMutation } from '@tanstack/react-query';
import { revokeSession } from './oidc';
import { clearSession, getRefreshToken } from './session';
import { getRealm } from './tenant-store';

/**
 * Ends the session at the identity provider, then locally; the session listener goes to
 * /login. Shared (lib/) because the layout's user card and the onboarding both log out.
 */
export async function logout(): Promise<void> {
  const refreshToken = getRefreshToken();
  const realm = getRealm();
  try {
    if (refreshToken && realm) await revokeSession(realm, refreshToken);
  } finally {
    clearSession('logout');
  }
}

export const useLogout = () => useMutation({ mutationFn: logout });
