import { useMutation } from '@tanstack/react-query';
import { endSessionUrl, revokeRefreshToken } from './code-flow';
import { revokeSession } from './oidc';
import { clearSession, getIdToken, getRefreshToken } from './session';
import { getRealm } from './tenant-store';

/**
 * Ends the session at the identity provider, then locally; the session listener goes to
 * /login. A code-flow sign-in also ends the provider's browser session (single sign-on): the
 * browser passes through its logout and comes back to /login. Shared (lib/) because the
 * layout's user card and the onboarding both log out.
 */
export async function logout(): Promise<void> {
  const refreshToken = getRefreshToken();
  const idToken = getIdToken();
  const realm = getRealm();
  try {
    if (refreshToken && realm) {
      await (idToken
        ? revokeRefreshToken(realm, refreshToken)
        : revokeSession(realm, refreshToken));
    }
  } finally {
    clearSession('logout');
  }
  if (idToken && realm) window.location.assign(endSessionUrl(realm, idToken));
}

export const useLogout = () => useMutation({ mutationFn: logout });
