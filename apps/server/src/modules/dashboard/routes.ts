import type { FastifyInstance } from 'fastify';
import { dashboardRoutes as routes } from '@tc/contract/routes/dashboard';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';
import { createDashboardCache, getDashboard } from './service';

/** `GET /dashboard`: the home dashboard's figures and charts, in one answer. */
export async function dashboardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const cache = createDashboardCache();
  registerRoute(app, routes.get, async (request) => ({
    data: await getDashboard({ db: ctx.db, caller: callerOf(request), cache }),
  }));
}
