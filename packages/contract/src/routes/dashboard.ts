import { dashboardResponseSchema } from '../dashboard';
import { defineRoute } from '../route';

export const dashboardRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/dashboard',
    response: dashboardResponseSchema,
    permission: 'tenant:read',
    summary: "The caller's tenant's figures, charts and recent activity",
  }),
};
