import { userRoutes } from '@tc/contract/routes/users';
import { useMutation } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api';

/**
 * Sends an invited user (no password yet) a fresh invitation link; the previous link stops
 * working (apps/server/src/modules/users/routes.ts). The server answers 409 once the user
 * has set a password: they reset it instead.
 */
export async function resendInvitation(userId: string) {
  return callRoute(userRoutes.resendInvitation, { params: { id: userId } });
}

/** Nothing a list shows changes (the user stays invited), so no query is invalidated. */
export function useResendInvitation() {
  return useMutation({ mutationFn: resendInvitation });
}
