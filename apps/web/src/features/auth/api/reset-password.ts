import type { AccountDoneResponse, ResetPasswordRequest } from '@tc/contract/account';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1.0/auth/reset-password with the token of the /newpassword?token=… link. */
export const resetPassword = (body: ResetPasswordRequest) =>
  apiRequest<AccountDoneResponse>('/api/v1.0/auth/reset-password', { method: 'POST', body });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
