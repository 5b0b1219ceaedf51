import type { FastifyInstance } from 'fastify';
import { mailQueueRoutes as routes } from '@tc/contract/routes/mail-queue';
import type { AppContext } from '../../app-context';
import { registerRoute } from '../../http/register-route';
import { pageMailQueue } from './queries';

/** Read-only: the outbox worker and the retention job are what change these rows. */
export async function mailQueueRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRoute(app, routes.page, async (request) => ({
    data: await pageMailQueue(ctx.db, request.body),
  }));
}
