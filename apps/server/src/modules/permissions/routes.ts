import type { FastifyInstance } from 'fastify';
import {
  createPermissionSchema,
  permissionPageRequestSchema,
  permissionPageResponseSchema,
  permissionSchema,
  updatePermissionSchema,
} from '@tc/contract/permissions-api';
import type { AppContext } from '../../app-context';
import { registerCrudRoutes } from '../../http/crud-routes';
import { permissionsService } from './service';

/** /permissions/page, /create, /update, /delete/{id}, /{id} (docs/api-conventions.md). */
export async function permissionsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCrudRoutes(app, ctx, {
    entity: 'permissions',
    read: { permission: 'permissions:read' },
    write: { permission: 'permissions:write' },
    schemas: {
      row: permissionSchema,
      page: permissionPageRequestSchema,
      create: createPermissionSchema,
      update: updatePermissionSchema,
      pageResponse: permissionPageResponseSchema,
    },
    service: permissionsService,
  });
}
