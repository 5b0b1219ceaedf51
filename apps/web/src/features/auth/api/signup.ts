import type { SignupRequest } from '@tc/contract/account';
import { authRoutes } from '@tc/contract/routes/auth';
import { fetchRoute } from '../../../lib/api';
import { useAction } from './use-action';

/** POST /auth/signup → 202; the account is active once the e-mail link is opened. */
export const signup = (body: SignupRequest) => fetchRoute(authRoutes.signup, { body });

export const useSignup = () => useAction(signup);
