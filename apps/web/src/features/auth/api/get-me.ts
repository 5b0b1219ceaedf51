import type { Me } from '@tc/contract/identity';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/v1.0/auth/me: the signed-in user for the user card. */
export const getMe = async () => (await apiRequest<{ data: Me }>('/api/v1.0/auth/me')).data;

export const useMe = () => useQuery({ queryKey: ['auth', 'me'], queryFn: getMe });
