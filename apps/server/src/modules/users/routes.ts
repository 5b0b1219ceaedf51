import type { FastifyInstance } from 'fastify';
import { userRoutes } from '@tc/contract/routes/users';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerCrudRoutes } from '../../http/crud-routes';
import { registerRoute } from '../../http/register-route';
import { requireMayActOnUser } from '../roles';
import { registerUserSecurityRoutes } from './security';
import { resendInvitation, usersService } from './service';

/**
 * users/page, users/create, users/update, users/delete/{id}, users/{id} (docs/api-conventions.md)
 * and users/{id}/resend-invitation.
 */
export async function usersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCrudRoutes(app, ctx, {
    routes: userRoutes,
    service: {
      ...usersService,
      // The invitation is queued in the create transaction; send it now, not at the next poll.
      create: async (options) => {
        const user = await usersService.create(options);
        ctx.mail.nudge();
        return user;
      },
    },
  });

  registerRoute(app, userRoutes.resendInvitation, async (request) => {
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
    return { data: { message: 'The invitation was sent again.' } };
  });

  registerUserSecurityRoutes(app, ctx);
}
