import type { FastifyInstance } from 'fastify';
import { accountApplicationRoutes as routes } from '@tc/contract/routes/account-applications';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { notFound } from '../../http/problem';
import { registerRoute } from '../../http/register-route';
import { listConsents, withdrawConsent } from '../../identity/consent/consents';

/**
 * The applications the signed-in user allowed (consent), and withdrawing one: its tokens end
 * with it (a write of the caller's tenant, so the API's cached view of callers is renewed).
 */
export function registerApplicationRoutes(app: FastifyInstance, ctx: AppContext) {
  registerRoute(app, routes.applications, async (request) => {
    const { tenantId, userId } = callerOf(request);
    return { data: await listConsents(ctx.db, { tenantId, userId }) };
  });
  registerRoute(app, routes.withdrawApplication, async (request) => {
    const { tenantId, userId } = callerOf(request);
    const key = { tenantId, userId, clientRowId: request.params.id };
    if (!(await withdrawConsent(ctx.db, key))) throw notFound('consent.not_found');
    return { data: { ok: true as const } };
  });
}
