import type { FastifyInstance } from 'fastify';
import { permissionRoutes } from '@tc/contract/routes/permissions';
import type { AppContext } from '../../app-context';
import { registerCrudRoutes } from '../../http/crud-routes';
import { permissionsService } from './service';

/** The five routes of permissions, as the contract's table declares them. */
export async function permissionsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCrudRoutes(app, ctx, { routes: permissionRoutes, service: permissionsService });
}
