import type { Onboarding, OnboardingUpdate } from '@tc/contract/onboarding';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ONBOARDING_PATH, onboardingKey } from '../../../lib/onboarding';

export async function saveProgress(update: OnboardingUpdate): Promise<Onboarding> {
  const answer = await apiRequest<{ data: Onboarding }>(ONBOARDING_PATH, {
    method: 'PUT',
    body: update,
  });
  return answer.data;
}

export async function skipOnboarding(): Promise<Onboarding> {
  const answer = await apiRequest<{ data: Onboarding }>(`${ONBOARDING_PATH}/skip`, {
    method: 'POST',
  });
  return answer.data;
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
