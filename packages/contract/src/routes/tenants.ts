import { z } from 'zod';
import { tenantIdHeaderSchema } from '../headers';
import { identifyResponseSchema } from '../identity';
import { defineRoute } from '../route';
import {
  tenantCreateSchema,
  tenantPageRequestSchema,
  tenantPageResponseSchema,
  tenantSchema,
  tenantUpdateSchema,
} from '../tenants';
import { crudRoutes } from './crud';

/** The logo upload (raw image bytes, not JSON) is registered by the server by hand. */
export const tenantRoutes = {
  /** Before sign-in: which tenant this address or Tenant-ID header belongs to. */
  identify: defineRoute({
    method: 'GET',
    path: '/tenants/identify',
    headers: z.object({ 'tenant-id': tenantIdHeaderSchema }),
    response: identifyResponseSchema,
    permission: 'public',
    problems: [404],
    summary: 'Which tenant this address or Tenant-ID header belongs to',
  }),
  // Tenant management is for super administrators of the master realm only.
  ...crudRoutes(
    'tenants',
    {
      row: tenantSchema,
      page: tenantPageRequestSchema,
      pageResponse: tenantPageResponseSchema,
      create: tenantCreateSchema,
      update: tenantUpdateSchema,
    },
    { read: 'super-admin', write: 'super-admin' },
    'DELETE',
  ),
};
