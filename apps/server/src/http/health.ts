import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../app-context';
import { loggableError } from './logging';
import { sendProblem } from './problem';

/**
 * How long readiness waits for the database. A load balancer polls every few seconds: an
 * answer that waits out the pool's connection timeout (5 s) or a dead connection's TCP
 * timeout would keep traffic coming to a process that cannot serve it.
 */
export const READY_TIMEOUT_MS = 3000;

/** Liveness (the process answers) and readiness (the database answers). */
export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const schema = { tags: ['health'], hide: false };
  // The instance lets whoever started a process check that it is the one answering here.
  app.get('/healthz', { schema }, async () => ({
    status: 'ok',
    instance: ctx.config.instanceId,
  }));
  app.get('/readyz', { schema }, async (request, reply) => {
    // Each check asks the pool again, so readiness comes back by itself with the database.
    try {
      await withinTime(ctx.db.execute(sql`select 1`), READY_TIMEOUT_MS);
      return { status: 'ok', database: ctx.database.engine };
    } catch (error) {
      request.log.warn({ err: loggableError(error) }, 'readiness check failed');
      return sendProblem(reply, { status: 503, code: 'service.database_unreachable' });
    }
  });
}

/** The promise's outcome, or a rejection once `ms` have passed (the work itself goes on). */
function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
