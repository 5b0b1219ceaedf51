import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditPageRequestSchema, auditPageResponseSchema } from '@tc/contract/audit';
import { problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { pageAudit } from './service';

/** The audit log is read-only over HTTP: entries are written by recordChange (record.ts). */
export async function auditRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/audit/page',
    {
      config: { permission: 'audit:read', readOnly: true },
      schema: {
        tags: ['audit'],
        summary: "A page of the tenant's audit log, newest first by default",
        body: auditPageRequestSchema,
        response: {
          200: auditPageResponseSchema,
          400: problemSchema,
          401: problemSchema,
          403: problemSchema,
        },
      },
    },
    async (request) => ({
      data: await pageAudit({ db: ctx.db, caller: callerOf(request), request: request.body }),
    }),
  );
}
