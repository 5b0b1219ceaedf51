import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { meResponseSchema } from '@tc/contract/identity';
import { SUPER_ADMIN_ROLE } from '@tc/contract/permissions';
import { problemSchema } from '@tc/contract/problem';
import { callerOf } from '../../http/auth-guard';

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/auth/me',
    {
      config: { anyRealm: true },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: meResponseSchema, 401: problemSchema },
      },
    },
    async (request) => {
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
    },
  );
}
