import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardResponseSchema } from '@tc/contract/dashboard';
import { problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { createDashboardCache, getDashboard } from './service';

/** `GET /dashboard`: the home dashboard's figures and charts, in one answer. */
export async function dashboardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const cache = createDashboardCache();
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/dashboard',
    {
      config: { permission: 'tenant:read' },
      schema: {
        tags: ['dashboard'],
        summary: "The caller's tenant's figures, charts and recent activity",
        response: { 200: dashboardResponseSchema, 401: problemSchema, 403: problemSchema },
      },
    },
    async (request) => ({
      data: await getDashboard({ db: ctx.db, caller: callerOf(request), cache }),
    }),
  );
}
