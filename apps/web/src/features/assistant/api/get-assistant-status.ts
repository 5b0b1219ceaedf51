import type { AssistantStatus } from '@tc/contract/assistant';
import { assistantRoutes } from '@tc/contract/routes/assistant';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api';

export const assistantStatusKey = ['assistant', 'status'] as const;

/** Whether the server has an AI provider (`GET /assistant`); without one the widget says so. */
export async function getAssistantStatus(): Promise<AssistantStatus> {
  return callRoute(assistantRoutes.status);
}

/** Asked only once the chat box has been opened: most visits never open it. */
export function useAssistantStatus(enabled: boolean) {
  return useQuery({
    queryKey: assistantStatusKey,
    queryFn: getAssistantStatus,
    enabled,
    // Configuration changes only with a server restart.
    staleTime: 10 * 60_000,
  });
}
