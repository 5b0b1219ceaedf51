import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@tc/contract/paging';
import { problemSchema } from '@tc/contract/problem';
import { tenantRoutes as routes } from '@tc/contract/routes/tenants';
import { tenantResponseSchema } from '@tc/contract/tenants';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerCrudRoutes, type ServiceContext } from '../../http/crud-routes';
import { registerRoute } from '../../http/register-route';
import { acceptImageBodies } from '../../http/image-body';
import { AppError } from '../../http/problem';
import { removeTenantLogo, setTenantLogo } from './logo';
import { tenantService } from './service';
import { identifyTenant } from './service';

/**
 * Tenant management is for super administrators of the master realm only; a tenant's own
 * administrators never see another tenant.
 */
const SUPER_ADMIN = { superAdmin: true };

export async function tenantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  registerRoute(app, routes.identify, async (request) => ({
    data: await identifyTenant(ctx.db, {
      tenantIdHeader: request.headers['tenant-id'],
      hostname: request.hostname,
      publicHost: new URL(ctx.config.publicUrl).hostname.toLowerCase(),
      googleClientId: ctx.config.googleClientId,
    }),
  }));

  registerCrudRoutes(app, ctx, { routes, service: tenantService });

  // Logos arrive as the raw image bytes (this plugin's scope only), so their routes are
  // registered by hand, outside the contract's table of JSON routes.
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
        throw new AppError(415, 'image.unsupported');
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
