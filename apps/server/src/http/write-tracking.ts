import type { FastifyInstance } from 'fastify';
import type { DataVersion } from '../db/data-version';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that only reads (the list pages): answering it does not count as a change. */
    readOnly?: boolean;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Counts every answered request that may have written as a change, in `onSend`: after the
 * handler's transaction committed and before the client can see the answer.
 */
export function registerWriteTracking(app: FastifyInstance, version: DataVersion): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!READ_METHODS.has(request.method) && !request.routeOptions.config?.readOnly) {
      version.bump();
    }
    return payload;
  });
}
