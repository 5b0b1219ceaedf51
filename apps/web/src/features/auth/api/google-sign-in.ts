import { authRoutes } from '@tc/contract/routes/auth';
import { useMutation } from '@tanstack/react-query';
import { fetchRoute } from '../../../lib/api';
import { getSession, saveTokens, type Session } from '../../../lib/session';

/** POST /auth/google: the server verifies Google's ID token and answers with our tokens. */
export async function googleSignIn(credential: string): Promise<Session> {
  const tokens = await fetchRoute(authRoutes.google, { body: { credential } });
  saveTokens(tokens, false);
  const session = getSession();
  if (!session) throw new Error('The sign-in answer held no token.');
  return session;
}

export const useGoogleSignIn = () => useMutation({ mutationFn: googleSignIn });
