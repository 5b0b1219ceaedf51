import type { AcceptedResponse } from '@tc/contract/account';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * Sends an invited user (no password yet) a fresh invitation link; the previous link stops
 * working (apps/server/src/modules/users/routes.ts). The server answers 409 once the user
 * has set a password: they reset it instead.
 */
export async function resendInvitation(userId: string) {
  const answer = await apiRequest<AcceptedResponse>(
    `/api/v1.0/users/${encodeURIComponent(userId)}/resend-invitation`,
    { method: 'POST' },
  );
  return answer.data;
}

/** Nothing a list shows changes (the user stays invited), so no query is invalidated. */
export function useResendInvitation() {
  return useMutation({ mutationFn: resendInvitation });
}
