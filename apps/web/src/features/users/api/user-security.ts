import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserSecurity } from '@tc/contract/security';
import { userRoutes } from '@tc/contract/routes/users';
import { callRoute } from '../../../lib/api';

/** Not under ['users']: a change to the list (a live event) need not refetch this dialog. */
export const userSecurityKey = (userId: string) => ['user-security', userId] as const;

export const getUserSecurity = (id: string) => callRoute(userRoutes.security, { params: { id } });

export const useUserSecurity = (userId: string) =>
  useQuery({ queryKey: userSecurityKey(userId), queryFn: () => getUserSecurity(userId) });

function useSecurityMutation<Input, Output>(
  userId: string,
  mutationFn: (input: Input) => Promise<Output>,
  onSuccess?: (output: Output, client: ReturnType<typeof useQueryClient>) => void,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (output) => onSuccess?.(output, client),
    onSettled: () => void client.invalidateQueries({ queryKey: userSecurityKey(userId) }),
  });
}

/** Ends one of the user's sessions. */
export const useRevokeUserSession = (userId: string) =>
  useSecurityMutation(userId, (sessionId: string) =>
    callRoute(userRoutes.revokeSession, { params: { id: userId, sessionId } }),
  );

/** Ends every session of the user. */
export const useRevokeUserSessions = (userId: string) =>
  useSecurityMutation(userId, () =>
    callRoute(userRoutes.revokeSessions, { params: { id: userId } }),
  );

/** Removes the user's authenticator app, recovery codes and passkeys; answers what is left. */
export const useResetUserMfa = (userId: string) =>
  useSecurityMutation(
    userId,
    () => callRoute(userRoutes.resetMfa, { params: { id: userId } }),
    (security: UserSecurity, client) => client.setQueryData(userSecurityKey(userId), security),
  );
