import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountRoutes } from '@tc/contract/routes/account';
import { callRoute } from '../../../lib/api';
import { accountKeys } from './keys';

export const getSessions = () => callRoute(accountRoutes.sessions);

export const useSessions = () => useQuery({ queryKey: accountKeys.sessions, queryFn: getSessions });

function useSessionsMutation<Input>(mutationFn: (input: Input) => Promise<{ revoked: number }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => void client.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

/** Ends one of the user's sessions: its access tokens fail at once. */
export const useRevokeSession = () =>
  useSessionsMutation((id: string) => callRoute(accountRoutes.revokeSession, { params: { id } }));

/** Ends every session of the user but the one asking. */
export const useRevokeOtherSessions = () =>
  useSessionsMutation(() => callRoute(accountRoutes.revokeOtherSessions));
