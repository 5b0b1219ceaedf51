import type { ResetPasswordRequest } from '@tc/contract/account';
import { authRoutes } from '@tc/contract/routes/auth';
import { useMutation } from '@tanstack/react-query';
import { fetchRoute } from '../../../lib/api';

/** POST /auth/reset-password with the token of the /newpassword?token=… link. */
export const resetPassword = (body: ResetPasswordRequest) =>
  fetchRoute(authRoutes.resetPassword, { body });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
