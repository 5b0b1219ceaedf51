import type { ResetPasswordRequest } from '@tc/contract/account';
import { authRoutes } from '@tc/contract/routes/auth';
import { fetchRoute } from '../../../lib/api';
import { useAction } from './use-action';

/** POST /auth/reset-password with the token of the /newpassword?token=… link. */
export const resetPassword = (body: ResetPasswordRequest) =>
  fetchRoute(authRoutes.resetPassword, { body });

export const useResetPassword = () => useAction(resetPassword);
