import type { AcceptedResponse, ForgotPasswordRequest } from '@tc/contract/account';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1.0/auth/forgot-password → 202, the same answer whether the address is known or not. */
export const forgotPassword = (body: ForgotPasswordRequest) =>
  apiRequest<AcceptedResponse>('/api/v1.0/auth/forgot-password', { method: 'POST', body });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
