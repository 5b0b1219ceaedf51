import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountRoutes } from '@tc/contract/routes/account';
import { callRoute } from '../../../lib/api';
import { accountKeys } from './keys';
import { withRecentProof } from './reverify';

export const getSecondFactors = () => callRoute(accountRoutes.secondFactors);

export const useSecondFactors = () =>
  useQuery({ queryKey: accountKeys.secondFactors, queryFn: getSecondFactors });

/** A mutation of the user's second factors, refreshing their summary after it, failed or not. */
export function useSecondFactorMutation<Input, Output>(
  mutationFn: (input: Input) => Promise<Output>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => void client.invalidateQueries({ queryKey: accountKeys.secondFactors }),
  });
}

// Each change below asks for a recent proof of the user first when the server wants one.

/** A new, unconfirmed authenticator secret; nothing changes until its first code confirms it. */
export const startTotpSetup = () => withRecentProof(() => callRoute(accountRoutes.totpSetup));

/** Confirms the app with its first code; answers the ten recovery codes, shown once. */
export const useConfirmTotp = () =>
  useSecondFactorMutation((code: string) =>
    withRecentProof(() => callRoute(accountRoutes.totpConfirm, { body: { code } })),
  );

export const useRemoveTotp = () =>
  useSecondFactorMutation(() => withRecentProof(() => callRoute(accountRoutes.totpRemove)));

/** Ten new recovery codes; the earlier ones stop working. */
export const useNewRecoveryCodes = () =>
  useSecondFactorMutation(() => withRecentProof(() => callRoute(accountRoutes.recoveryCodes)));
