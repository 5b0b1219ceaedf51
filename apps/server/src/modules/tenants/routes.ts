import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantIdHeaderSchema } from '@tc/contract/headers';
import { identifyResponseSchema } from '@tc/contract/identity';
import { idParamsSchema } from '@tc/contract/paging';
import { problemSchema } from '@tc/contract/problem';
import {
  tenantCreateSchema,
  tenantPageRequestSchema,
  tenantPageResponseSchema,
  tenantResponseSchema,
  tenantSchema,
  tenantUpdateSchema,
} from '@tc/contract/tenants';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerCrudRoutes, type ServiceContext } from '../../http/crud-routes';
import { acceptImageBodies } from '../../http/image-body';
import { AppError } from '../../http/problem';
import { removeTenantLogo, setTenantLogo } from './logo';
import { tenantService } from './manage';
import { identifyTenant } from './service';

/**
 * Tenant management is for super administrators of the master realm only; a tenant's own
 * administrators never see another tenant.
 */
const SUPER_ADMIN = { superAdmin: true };

export async function tenantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/tenants/identify',
    {
      config: { public: true },
      schema: {
        tags: ['tenants'],
        summary: 'Which tenant this address or Tenant-ID header belongs to',
        headers: z.object({ 'tenant-id': tenantIdHeaderSchema }),
        response: { 200: identifyResponseSchema, 404: problemSchema },
      },
    },
    async (request) => ({
      data: await identifyTenant(ctx.db, {
        tenantIdHeader: request.headers['tenant-id'],
        hostname: request.hostname,
        publicHost: new URL(ctx.config.publicUrl).hostname.toLowerCase(),
        googleClientId: ctx.config.googleClientId,
      }),
    }),
  );

  registerCrudRoutes(app, ctx, {
    entity: 'tenants',
    read: SUPER_ADMIN,
    write: SUPER_ADMIN,
    deleteMethod: 'DELETE',
    schemas: {
      row: tenantSchema,
      page: tenantPageRequestSchema,
      create: tenantCreateSchema,
      update: tenantUpdateSchema,
      pageResponse: tenantPageResponseSchema,
    },
    service: tenantService,
  });

  // Logos arrive as the raw image bytes (this plugin's scope only).
  acceptImageBodies(app);
  const context = (request: FastifyRequest): ServiceContext => ({
    db: ctx.db,
    config: ctx.config,
    caller: callerOf(request),
  });
  const errors = {
    400: problemSchema,
    401: problemSchema,
    403: problemSchema,
    404: problemSchema,
  };

  r.put(
    '/tenants/:id/logo',
    {
      config: SUPER_ADMIN,
      schema: {
        tags: ['tenants'],
        summary: 'Upload the tenant’s logo: the raw bytes of a PNG, JPEG, WebP or GIF up to 2 MB',
        params: idParamsSchema,
        response: { 200: tenantResponseSchema, 413: problemSchema, 415: problemSchema, ...errors },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) {
        throw new AppError(415, 'Upload a PNG, JPEG, WebP or GIF image.');
      }
      const bytes = request.body;
      return { data: await setTenantLogo({ ...context(request), id: request.params.id, bytes }) };
    },
  );

  r.delete(
    '/tenants/:id/logo',
    {
      config: SUPER_ADMIN,
      schema: {
        tags: ['tenants'],
        summary: 'Remove the tenant’s logo',
        params: idParamsSchema,
        response: { 200: tenantResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: await removeTenantLogo({ ...context(request), id: request.params.id }),
    }),
  );
}
