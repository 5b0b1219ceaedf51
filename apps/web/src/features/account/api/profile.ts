import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountProfileUpdate } from '@tc/contract/security';
import { accountRoutes } from '@tc/contract/routes/account';
import { callRoute } from '../../../lib/api';
import { accountKeys, meKey } from './keys';

export const getProfile = () => callRoute(accountRoutes.profile);

export const useProfile = () => useQuery({ queryKey: accountKeys.profile, queryFn: getProfile });

export const updateProfile = (body: AccountProfileUpdate) =>
  callRoute(accountRoutes.updateProfile, { body });

/** The answer is the saved profile; the user card shows the name from its own query. */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      client.setQueryData(accountKeys.profile, profile);
      void client.invalidateQueries({ queryKey: meKey });
    },
  });
}
