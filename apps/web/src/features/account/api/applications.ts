import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountApplicationRoutes } from '@tc/contract/routes/account-applications';
import { callRoute } from '../../../lib/api';
import { accountKeys } from './keys';

export const getApplications = () => callRoute(accountApplicationRoutes.applications);

export const useApplications = () =>
  useQuery({ queryKey: accountKeys.applications, queryFn: getApplications });

/**
 * Withdraws the consent given to an application: its tokens end with it, so the sessions
 * list changes too.
 */
export function useWithdrawApplication() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      callRoute(accountApplicationRoutes.withdrawApplication, { params: { id } }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: accountKeys.applications });
      void client.invalidateQueries({ queryKey: accountKeys.sessions });
    },
  });
}
