import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, TokenService } from '../identity/token-service';
import { forbidden, unauthorized } from './problem';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (identify, sign-up, password reset). */
    public?: boolean;
    /** The permission a tenant user's token must grant, e.g. `users:read`. */
    permission?: string;
    /** Tenant management: super administrators of the master realm only. */
    superAdmin?: boolean;
    /** Any signed-in user of any realm (e.g. the caller's own profile). */
    anyRealm?: boolean;
  }
  interface FastifyRequest {
    caller: Caller | undefined;
  }
}

/**
 * Authentication for a whole route prefix in one hook, so no handler can forget it. A route
 * states what it needs in its config; by default it is a tenant route that needs a token.
 */
export function registerAuthGuard(api: FastifyInstance, tokens: TokenService): void {
  api.decorateRequest('caller', undefined);
  api.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const caller = match ? await tokens.authenticate(match[1]!) : undefined;
    if (!caller) throw unauthorized('auth.session_invalid');
    request.caller = caller;
    if (config.anyRealm) return;
    if (config.superAdmin) {
      if (!caller.isMaster) throw forbidden('auth.super_admin_only');
      return;
    }
    if (caller.isMaster) throw forbidden('auth.super_admin_not_tenant');
    if (config.permission && !caller.permissions.includes(config.permission)) {
      throw forbidden('auth.permission_required', { permission: config.permission });
    }
  });
}

/** The authenticated caller of a guarded route. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}
