import { authRoutes } from '@tc/contract/routes/auth';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api';

/** GET /auth/me: the signed-in user for the user card. */
export const getMe = () => callRoute(authRoutes.me);

export const useMe = () => useQuery({ queryKey: ['auth', 'me'], queryFn: getMe });
