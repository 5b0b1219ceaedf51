import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@tc/contract/security';
import { accountRoutes } from '@tc/contract/routes/account';
import { callRoute } from '../../../lib/api';
import { accountKeys } from './keys';

export const changePassword = (body: ChangePasswordRequest) =>
  callRoute(accountRoutes.changePassword, { body });

/** A new password ends every other session, so the session list changes too. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => void client.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}
