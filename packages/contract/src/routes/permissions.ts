import {
  createPermissionSchema,
  permissionPageRequestSchema,
  permissionPageResponseSchema,
  permissionSchema,
  updatePermissionSchema,
} from '../permissions-api';
import { crudRoutes } from './crud';

export const permissionRoutes = crudRoutes(
  'permissions',
  {
    row: permissionSchema,
    page: permissionPageRequestSchema,
    pageResponse: permissionPageResponseSchema,
    create: createPermissionSchema,
    update: updatePermissionSchema,
  },
  { read: 'permissions:read', write: 'permissions:write' },
);
