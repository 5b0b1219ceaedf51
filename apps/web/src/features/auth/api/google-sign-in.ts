import type { TokenResponse } from '@tc/contract/identity';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { getSession, saveTokens, type Session } from '../../../lib/session';

/** POST /api/v1.0/auth/google: the server verifies Google's ID token and answers with our tokens. */
export async function googleSignIn(credential: string): Promise<Session> {
  const tokens = await apiRequest<TokenResponse>('/api/v1.0/auth/google', {
    method: 'POST',
    body: { credential },
  });
  saveTokens(tokens, false);
  const session = getSession();
  if (!session) throw new Error('The sign-in answer held no token.');
  return session;
}

export const useGoogleSignIn = () => useMutation({ mutationFn: googleSignIn });
