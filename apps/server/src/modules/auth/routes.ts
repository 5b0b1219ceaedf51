import type { FastifyInstance } from 'fastify';
import { SUPER_ADMIN_ROLE } from '@tc/contract/permissions';
import { authRoutes as routes } from '@tc/contract/routes/auth';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';

export async function authRoutes(app: FastifyInstance) {
  registerRoute(app, routes.me, async (request) => {
    const caller = callerOf(request);
    return {
      data: {
        id: caller.userId,
        email: caller.email,
        firstName: caller.firstName,
        lastName: caller.lastName,
        tenantId: caller.tenantId,
        realm: caller.realm,
        roles: caller.roles,
        permissions: caller.permissions,
        superAdmin: caller.isMaster && caller.roles.includes(SUPER_ADMIN_ROLE),
      },
    };
  });
}
