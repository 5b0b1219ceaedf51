import type { SignupRequest } from '@tc/contract/account';
import { authRoutes } from '@tc/contract/routes/auth';
import { useMutation } from '@tanstack/react-query';
import { fetchRoute } from '../../../lib/api';

/** POST /auth/signup → 202; the account is active once the e-mail link is opened. */
export const signup = (body: SignupRequest) => fetchRoute(authRoutes.signup, { body });

export const useSignup = () => useMutation({ mutationFn: signup });
