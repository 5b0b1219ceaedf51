import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DataVersion } from '../db/data-version';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that only reads (the list pages): answering it does not count as a change. */
    readOnly?: boolean;
    /**
     * A POST whose writes change no cached answer: a sign-in or a refresh writes a session or
     * a rotated token, never what lists or a caller are made of. Such a route that ends a
     * session instead counts that change itself.
     */
    changesNoCachedAnswer?: boolean;
  }
  interface FastifyRequest {
    /** The tenant a public route identified and may have written to (sign-up, reset, …). */
    writtenTenantId: string | undefined;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The tenant a request may have written to: the signed-in caller's, or the one a public realm
 * or account route names. Undefined: every tenant (a super administrator may change any).
 * Null: none with cached answers (a realm no signed-in request has named in this process, or a
 * public route that identified no tenant).
 */
function tenantWritten(request: FastifyRequest, version: DataVersion): string | undefined | null {
  const { caller } = request;
  if (caller) return caller.isMaster ? undefined : caller.tenantId;
  if (request.writtenTenantId) return request.writtenTenantId;
  const realm = (request.params as { realm?: unknown } | undefined)?.realm;
  if (typeof realm === 'string') return version.tenantOfRealm(realm) ?? null;
  // A public route names its tenant when it writes; one that named none (an unknown host,
  // a refused request) wrote nothing, and must not empty every tenant's cache.
  return request.routeOptions.config?.public ? null : undefined;
}

/**
 * Counts every answered request that may have written as a change of the tenant it wrote to,
 * in `onSend`: after the handler's transaction committed and before the client can see the
 * answer. Signed-in requests teach the count which tenant each realm name belongs to.
 */
export function registerWriteTracking(app: FastifyInstance, version: DataVersion): void {
  app.decorateRequest('writtenTenantId', undefined);
  app.addHook('onSend', async (request, _reply, payload) => {
    const { caller } = request;
    if (caller) version.learnRealm(caller.realm, caller.tenantId);
    const config = request.routeOptions.config;
    if (!READ_METHODS.has(request.method) && !config?.readOnly && !config?.changesNoCachedAnswer) {
      const tenantId = tenantWritten(request, version);
      if (tenantId !== null) version.bump(tenantId);
    }
    return payload;
  });
}
