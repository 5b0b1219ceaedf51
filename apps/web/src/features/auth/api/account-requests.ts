import type {
  AcceptedResponse,
  AccountDoneResponse,
  ForgotPasswordRequest,
  ResetPasswordRequest,
  SignupRequest,
} from '@tc/contract/account';
import { API_BASE_PATH } from '@tc/contract/route';
import { apiRequest } from '../../../lib/api-client';

/**
 * The account routes the sign-in pages call (the contract's `authRoutes` paths), sent with the
 * console's client but without the route table, whose schemas (zod) the pages' small script
 * would otherwise carry. Problems arrive as ApiError, as with fetchRoute.
 */
const post = <Answer>(path: string, body: unknown) =>
  apiRequest<Answer>(`${API_BASE_PATH}${path}`, { method: 'POST', body });

/** POST /auth/forgot-password → 202, the same answer whether the address is known or not. */
export const forgotPassword = (body: ForgotPasswordRequest) =>
  post<AcceptedResponse>('/auth/forgot-password', body);

/** POST /auth/reset-password with the token of the /newpassword?token=… link. */
export const resetPassword = (body: ResetPasswordRequest) =>
  post<AccountDoneResponse>('/auth/reset-password', body);

/** POST /auth/signup → 202; the account is active once the e-mail link is opened. */
export const signup = (body: SignupRequest) => post<AcceptedResponse>('/auth/signup', body);

/** POST /auth/verify-email with the token of the /verifyemail?token=… link. */
export const verifyEmail = (token: string) =>
  post<AccountDoneResponse>('/auth/verify-email', { token });
