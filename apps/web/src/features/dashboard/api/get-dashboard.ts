import type { Dashboard } from '@tc/contract/dashboard';
import { dashboardRoutes } from '@tc/contract/routes/dashboard';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api';

/** lib/live-events.ts invalidates this key on every change event: the dashboard is live. */
export const dashboardKey = ['dashboard'] as const;

export async function fetchDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return callRoute(dashboardRoutes.get, { signal });
}

export function useDashboard(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKey,
    queryFn: ({ signal }) => fetchDashboard(signal),
    enabled,
  });
}
