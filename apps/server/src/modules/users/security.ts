import type { FastifyInstance } from 'fastify';
import type { UserSecurity } from '@tc/contract/security';
import { userRoutes } from '@tc/contract/routes/users';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { notFound } from '../../http/problem';
import { registerRoute } from '../../http/register-route';
import { principalById } from '../../identity/principal';
import type { Caller } from '../../identity/token-service';
import { listSessions, resetSecondFactors, revokeSessions, secondFactorsOf } from '../account';
import { requireMayActOnUser } from '../roles';

/**
 * An administrator's view of a user's sign-in security (users:write, within the tenant): the
 * open sessions, which can be ended, and the second factors, which can be reset. Ending or
 * resetting is acting on the account, so it takes holding what the user's role grants, as any
 * other change of that user does.
 */
export function registerUserSecurityRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** The user, of the caller's tenant only: any other id is unknown here. */
  async function requireUser(caller: Caller, userId: string) {
    const user = await principalById(ctx.db, caller.tenantId, userId);
    if (!user) throw notFound('user.not_found');
    return { tenantId: caller.tenantId, userId, permissions: user.permissions };
  }

  async function securityOf(caller: Caller, userId: string): Promise<UserSecurity> {
    const user = await requireUser(caller, userId);
    const [sessions, secondFactors] = await Promise.all([
      listSessions(ctx.db, user, caller.sessionId),
      secondFactorsOf(ctx.db, user, user.permissions),
    ]);
    return { sessions, secondFactors };
  }

  async function requireMayChange(caller: Caller, userId: string) {
    const user = await requireUser(caller, userId);
    await requireMayActOnUser(ctx.db, caller, userId);
    return { tenantId: user.tenantId, userId, actorId: caller.userId };
  }

  registerRoute(app, userRoutes.security, async (request) => ({
    data: await securityOf(callerOf(request), request.params.id),
  }));

  // Ending a session is a write of the caller's tenant, the user's too: the write tracking
  // counts it once answered, so the ended sessions' access tokens fail at the next request.
  registerRoute(app, userRoutes.revokeSession, async (request) => {
    const target = await requireMayChange(callerOf(request), request.params.id);
    const which = { only: request.params.sessionId };
    return { data: { revoked: await revokeSessions(ctx.db, target, which) } };
  });

  registerRoute(app, userRoutes.revokeSessions, async (request) => {
    const target = await requireMayChange(callerOf(request), request.params.id);
    return { data: { revoked: await revokeSessions(ctx.db, target, 'all') } };
  });

  registerRoute(app, userRoutes.resetMfa, async (request) => {
    const caller = callerOf(request);
    const target = await requireMayChange(caller, request.params.id);
    await resetSecondFactors(ctx, target);
    ctx.mail.nudge();
    return { data: await securityOf(caller, request.params.id) };
  });
}
