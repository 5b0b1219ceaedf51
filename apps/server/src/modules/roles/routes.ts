import type { FastifyInstance } from 'fastify';
import {
  createRoleSchema,
  rolePageRequestSchema,
  rolePageResponseSchema,
  roleSchema,
  updateRoleSchema,
} from '@tc/contract/roles';
import type { AppContext } from '../../app-context';
import { registerCrudRoutes } from '../../http/crud-routes';
import { rolesService } from './service';

/** /roles/page, /roles/create, /roles/update, /roles/delete/{id}, /roles/{id} (docs/api-conventions.md). */
export async function rolesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCrudRoutes(app, ctx, {
    entity: 'roles',
    read: { permission: 'roles:read' },
    write: { permission: 'roles:write' },
    schemas: {
      row: roleSchema,
      page: rolePageRequestSchema,
      create: createRoleSchema,
      update: updateRoleSchema,
      pageResponse: rolePageResponseSchema,
    },
    service: rolesService,
  });
}
