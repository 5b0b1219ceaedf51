import type { AcceptedResponse, SignupRequest } from '@tc/contract/account';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1.0/auth/signup → 202; the account is active once the e-mail link is opened. */
export const signup = (body: SignupRequest) =>
  apiRequest<AcceptedResponse>('/api/v1.0/auth/signup', { method: 'POST', body });

export const useSignup = () => useMutation({ mutationFn: signup });
