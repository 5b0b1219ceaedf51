import type { Dashboard } from '@tc/contract/dashboard';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** lib/live-events.ts invalidates this key on every change event: the dashboard is live. */
export const dashboardKey = ['dashboard'] as const;

export async function fetchDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return (await apiRequest<{ data: Dashboard }>('/api/v1.0/dashboard', { signal })).data;
}

export function useDashboard(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKey,
    queryFn: ({ signal }) => fetchDashboard(signal),
    enabled,
  });
}
