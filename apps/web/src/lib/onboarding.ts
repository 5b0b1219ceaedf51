import type { Onboarding } from '@tc/contract/onboarding';
import { useQuery } from '@tanstack/react-query';
import { onboardingRoutes } from '@tc/contract/routes/onboarding';
import { callRoute } from './api';

/**
 * The tenant's onboarding progress. Shared (lib/) because two features read it:
 * the home page opens the wizard by itself, the wizard resumes at the saved step.
 */
export const onboardingKey = ['onboarding'] as const;

export async function fetchOnboarding(signal?: AbortSignal): Promise<Onboarding> {
  return callRoute(onboardingRoutes.get, { signal });
}

/** Super administrators have no tenant to set up (the server answers 403): pass false. */
export function useOnboarding(enabled = true) {
  return useQuery({
    queryKey: onboardingKey,
    queryFn: ({ signal }) => fetchOnboarding(signal),
    enabled,
  });
}
