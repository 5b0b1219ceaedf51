import type { FastifyInstance } from 'fastify';
import { clientRoutes } from '@tc/contract/routes/clients';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerCrudRoutes } from '../../http/crud-routes';
import { registerRoute } from '../../http/register-route';
import { clientsService, rotateClientSecret } from './service';

/**
 * Applications (OAuth / OpenID Connect clients): the five routes of a managed entity
 * (docs/api-conventions.md) plus the rotation of a confidential client's secret.
 */
export async function clientsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCrudRoutes(app, ctx, { routes: clientRoutes, service: clientsService });

  registerRoute(app, clientRoutes.rotateSecret, async (request) => ({
    data: await rotateClientSecret({
      db: ctx.db,
      config: ctx.config,
      caller: callerOf(request),
      id: request.params.id,
    }),
  }));
}
