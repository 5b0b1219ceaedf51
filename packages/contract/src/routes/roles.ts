import {
  createRoleSchema,
  rolePageRequestSchema,
  rolePageResponseSchema,
  roleSchema,
  updateRoleSchema,
} from '../roles';
import { crudRoutes } from './crud';

export const roleRoutes = crudRoutes(
  'roles',
  {
    row: roleSchema,
    page: rolePageRequestSchema,
    pageResponse: rolePageResponseSchema,
    create: createRoleSchema,
    update: updateRoleSchema,
  },
  { read: 'roles:read', write: 'roles:write' },
);
