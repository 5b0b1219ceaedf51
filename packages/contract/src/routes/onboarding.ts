import { onboardingResponseSchema, onboardingUpdateSchema } from '../onboarding';
import { defineRoute } from '../route';

export const onboardingRoutes = {
  // Any user of the tenant: `shouldOpen` tells whether the wizard is theirs to run.
  get: defineRoute({
    method: 'GET',
    path: '/onboarding',
    response: onboardingResponseSchema,
    permission: 'tenant-user',
    summary: "The tenant's onboarding progress and whether to open the wizard",
  }),
  // Writing needs all of ONBOARDING_PERMISSIONS; the guard checks the first, the service all.
  save: defineRoute({
    method: 'PUT',
    path: '/onboarding',
    body: onboardingUpdateSchema,
    response: onboardingResponseSchema,
    permission: 'roles:write',
    summary: "Saves the step reached; step 'complete' records completion for the tenant",
  }),
  skip: defineRoute({
    method: 'POST',
    path: '/onboarding/skip',
    response: onboardingResponseSchema,
    permission: 'roles:write',
    summary: 'Stops the wizard from opening by itself (it can still be reopened)',
  }),
};
