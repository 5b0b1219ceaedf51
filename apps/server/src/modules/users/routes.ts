import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptedResponseSchema } from '@tc/contract/account';
import { acceptLanguageHeaderSchema } from '@tc/contract/headers';
import { idParamsSchema } from '@tc/contract/paging';
import { problemSchema } from '@tc/contract/problem';
import {
  userCreateSchema,
  userPageRequestSchema,
  userPageResponseSchema,
  userSchema,
  userUpdateSchema,
} from '@tc/contract/users';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerCrudRoutes } from '../../http/crud-routes';
import { resendInvitation } from '../auth/account-service';
import { requireMayActOnUser } from '../roles/grants';
import { EmailBookmarks } from './bookmarks';
import { getUser, pageUsers } from './page-users';
import { createUser, removeUser, updateUser } from './service';

/**
 * users/page, users/create, users/update, users/delete/{id}, users/{id} (docs/api-conventions.md)
 * and users/{id}/resend-invitation.
 */
export async function usersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { bookmarks, stop } = await EmailBookmarks.listening(ctx.database);
  app.addHook('onClose', () => stop());
  registerCrudRoutes(app, ctx, {
    entity: 'users',
    read: { permission: 'users:read' },
    write: { permission: 'users:write' },
    schemas: {
      row: userSchema,
      page: userPageRequestSchema,
      create: userCreateSchema,
      update: userUpdateSchema,
      pageResponse: userPageResponseSchema,
    },
    service: {
      page: (options) => pageUsers({ ...options, bookmarks }),
      get: getUser,
      // The invitation is queued in the create transaction; send it now, not at the next poll.
      create: async (options) => {
        const user = await createUser(options);
        ctx.mail.nudge();
        return user;
      },
      update: updateUser,
      remove: removeUser,
    },
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    '/users/:id/resend-invitation',
    {
      config: { permission: 'users:write' },
      schema: {
        tags: ['users'],
        summary: 'Sends a fresh invitation link; the previous one stops working',
        params: idParamsSchema,
        headers: z.object({ 'accept-language': acceptLanguageHeaderSchema }),
        response: {
          202: acceptedResponseSchema,
          400: problemSchema,
          401: problemSchema,
          403: problemSchema,
          404: problemSchema,
          409: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      await requireMayActOnUser(ctx.db, caller, request.params.id);
      await resendInvitation({
        db: ctx.db,
        config: ctx.config,
        tenantId: caller.tenantId,
        acceptLanguage: request.headers['accept-language'],
        userId: request.params.id,
        inviterId: caller.userId,
      });
      ctx.mail.nudge();
      return reply.code(202).send({ data: { message: 'The invitation was sent again.' } });
    },
  );
}
