import { authRoutes } from '@tc/contract/routes/auth';
import { useQuery } from '@tanstack/react-query';
import { fetchRoute } from '../../../lib/api';

/** POST /auth/verify-email with the token of the /verifyemail?token=… link. */
export const verifyEmail = (token: string) =>
  fetchRoute(authRoutes.verifyEmail, { body: { token } });

/**
 * A query, not a mutation: the token is single-use, and the query cache makes sure the call
 * runs once even when React mounts the page twice (StrictMode).
 */
export const useVerifyEmail = (token: string) =>
  useQuery({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => verifyEmail(token),
    enabled: token.length > 0,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
