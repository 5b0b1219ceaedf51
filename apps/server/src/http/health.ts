import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../app-context';
import { sendProblem } from './problem';

/** Liveness (the process answers) and readiness (the database answers). */
export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const schema = { tags: ['health'], hide: false };
  app.get('/healthz', { schema }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema }, async (request, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      return { status: 'ok', database: ctx.database.engine };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return sendProblem(reply, { status: 503, code: 'service.database_unreachable' });
    }
  });
}
