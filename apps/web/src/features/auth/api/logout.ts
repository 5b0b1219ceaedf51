import { useMutation } from '@tanstack/react-query';
import { revokeSession } from '../../../lib/oidc';
import { clearSession, getRefreshToken } from '../../../lib/session';
import { getRealm } from '../../../lib/tenant-store';

/** Ends the session at the identity provider, then locally; the session listener goes to /login. */
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
