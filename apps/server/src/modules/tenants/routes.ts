import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identifyResponseSchema } from '@tc/contract/identity';
import { problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../../app-context';
import { identifyTenant } from './service';

export async function tenantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/tenants/identify',
    {
      config: { public: true },
      schema: {
        tags: ['tenants'],
        summary: 'Which tenant this address or Tenant-ID header belongs to',
        headers: z.object({ 'tenant-id': z.string().optional() }),
        response: { 200: identifyResponseSchema, 404: problemSchema },
      },
    },
    async (request) => ({
      data: await identifyTenant(ctx.db, {
        tenantIdHeader: request.headers['tenant-id'],
        hostname: request.hostname,
        publicHost: new URL(ctx.config.publicUrl).hostname.toLowerCase(),
        googleEnabled: ctx.config.googleClientId !== undefined,
      }),
    }),
  );
}
