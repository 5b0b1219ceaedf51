import type { FastifyInstance } from 'fastify';
import { roleRoutes } from '@tc/contract/routes/roles';
import type { AppContext } from '../../app-context';
import { registerCrudRoutes } from '../../http/crud-routes';
import { rolesService } from './service';

/** /roles/page, /roles/create, /roles/update, /roles/delete/{id}, /roles/{id} (docs/api-conventions.md). */
export async function rolesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCrudRoutes(app, ctx, { routes: roleRoutes, service: rolesService });
}
