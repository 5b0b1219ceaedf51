import {
  projectCreateSchema,
  projectPageRequestSchema,
  projectPageResponseSchema,
  projectSchema,
  projectUpdateSchema,
} from '../projects';
import { crudRoutes } from './crud';

/** The logo upload (raw image bytes, not JSON) is registered by the server by hand. */
export const projectRoutes = crudRoutes(
  'projects',
  {
    row: projectSchema,
    page: projectPageRequestSchema,
    pageResponse: projectPageResponseSchema,
    create: projectCreateSchema,
    update: projectUpdateSchema,
  },
  { read: 'projects:read', write: 'projects:write' },
);
