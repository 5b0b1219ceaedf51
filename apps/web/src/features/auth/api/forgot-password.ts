import type { ForgotPasswordRequest } from '@tc/contract/account';
import { authRoutes } from '@tc/contract/routes/auth';
import { fetchRoute } from '../../../lib/api';
import { useAction } from './use-action';

/** POST /auth/forgot-password → 202, the same answer whether the address is known or not. */
export const forgotPassword = (body: ForgotPasswordRequest) =>
  fetchRoute(authRoutes.forgotPassword, { body });

export const useForgotPassword = () => useAction(forgotPassword);
