import type { AccountDoneResponse } from '@tc/contract/account';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1.0/auth/verify-email with the token of the /verifyemail?token=… link. */
export const verifyEmail = (token: string) =>
  apiRequest<AccountDoneResponse>('/api/v1.0/auth/verify-email', {
    method: 'POST',
    body: { token },
  });

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
