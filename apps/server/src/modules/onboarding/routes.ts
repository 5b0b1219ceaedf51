import type { FastifyInstance } from 'fastify';
import { onboardingRoutes as routes } from '@tc/contract/routes/onboarding';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';
import { getOnboarding, saveOnboarding, skipOnboarding } from './service';

/** The onboarding wizard's progress, per tenant, so a reload or another browser resumes it. */
export async function onboardingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRoute(app, routes.get, async (request) => ({
    data: await getOnboarding({ db: ctx.db, caller: callerOf(request) }),
  }));

  registerRoute(app, routes.save, async (request) => ({
    data: await saveOnboarding({ db: ctx.db, caller: callerOf(request), data: request.body }),
  }));

  registerRoute(app, routes.skip, async (request) => ({
    data: await skipOnboarding({ db: ctx.db, caller: callerOf(request) }),
  }));
}
