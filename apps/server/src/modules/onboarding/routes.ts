import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { onboardingResponseSchema, onboardingUpdateSchema } from '@tc/contract/onboarding';
import { problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { getOnboarding, saveOnboarding, skipOnboarding } from './service';

const errors = { 401: problemSchema, 403: problemSchema };
// Writing needs all of ONBOARDING_PERMISSIONS; the guard checks the first, the service all.
const write = { permission: 'roles:write' };

/** The onboarding wizard's progress, per tenant, so a reload or another browser resumes it. */
export async function onboardingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/onboarding',
    {
      // Any user of the tenant: `shouldOpen` tells whether the wizard is theirs to run.
      schema: {
        tags: ['onboarding'],
        summary: "The tenant's onboarding progress and whether to open the wizard",
        response: { 200: onboardingResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await getOnboarding({ db: ctx.db, caller: callerOf(request) }) }),
  );

  r.put(
    '/onboarding',
    {
      config: write,
      schema: {
        tags: ['onboarding'],
        summary: "Saves the step reached; step 'complete' records completion for the tenant",
        body: onboardingUpdateSchema,
        response: { 200: onboardingResponseSchema, 400: problemSchema, ...errors },
      },
    },
    async (request) => ({
      data: await saveOnboarding({ db: ctx.db, caller: callerOf(request), data: request.body }),
    }),
  );

  r.post(
    '/onboarding/skip',
    {
      config: write,
      schema: {
        tags: ['onboarding'],
        summary: 'Stops the wizard from opening by itself (it can still be reopened)',
        response: { 200: onboardingResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await skipOnboarding({ db: ctx.db, caller: callerOf(request) }) }),
  );
}
