import type { FastifyInstance } from 'fastify';
import { auditRoutes as routes } from '@tc/contract/routes/audit';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';
import { pageAudit } from './queries';

/** The audit log is read-only over HTTP: entries are written by recordChange (record.ts). */
export async function auditRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRoute(app, routes.page, async (request) => ({
    data: await pageAudit({ db: ctx.db, caller: callerOf(request), request: request.body }),
  }));
}
