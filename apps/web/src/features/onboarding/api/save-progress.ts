import type { Onboarding, OnboardingUpdate } from '@tc/contract/onboarding';
import { onboardingRoutes } from '@tc/contract/routes/onboarding';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api';
import { onboardingKey } from '../../../lib/onboarding';

export async function saveProgress(update: OnboardingUpdate): Promise<Onboarding> {
  return callRoute(onboardingRoutes.save, { body: update });
}

export async function skipOnboarding(): Promise<Onboarding> {
  return callRoute(onboardingRoutes.skip);
}

/**
 * The answer replaces the cached progress at once, so the home page never acts on the state
 * from before (a completed wizard must not reopen itself on the way to /home).
 */
function useProgressMutation<Input>(mutationFn: (input: Input) => Promise<Onboarding>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (progress) => client.setQueryData(onboardingKey, progress),
  });
}

export const useSaveProgress = () => useProgressMutation(saveProgress);
export const useSkipOnboarding = () => useProgressMutation(() => skipOnboarding());
