import type { FastifyInstance } from 'fastify';
import { auditExportRequestSchema, type AuditExportRequest } from '@tc/contract/audit';
import { problemSchema } from '@tc/contract/problem';
import { auditRoutes as routes } from '@tc/contract/routes/audit';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { csvFileName, csvLanguageOf, csvSeparatorOf, sendCsv } from '../../http/csv';
import { guardConfig, registerRoute } from '../../http/register-route';
import { AUDIT_CSV_COLUMNS, exportBatches } from './export';
import { pageAudit } from './queries';

/** The audit log is read-only over HTTP: entries are written by recordChange (record.ts). */
export async function auditRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRoute(app, routes.page, async (request) => ({
    data: await pageAudit({ db: ctx.db, caller: callerOf(request), request: request.body }),
  }));

  // Registered by hand: the answer is a CSV file, not the JSON envelope of the route table.
  app.route({
    method: 'POST',
    url: '/audit/export',
    config: guardConfig('audit:read'),
    schema: {
      tags: ['audit'],
      summary:
        "The tenant's audit entries the list's filter, search and sort select, as a CSV file (every entry, not a page)",
      body: auditExportRequestSchema,
      response: { 400: problemSchema, 401: problemSchema, 403: problemSchema },
    },
    handler: (request, reply) => {
      const body = request.body as AuditExportRequest;
      const batches = exportBatches(ctx.db, callerOf(request).tenantId, body);
      // Its headers are field names; the caller's language picks the separator only.
      return sendCsv(reply, {
        fileName: csvFileName('audit-log'),
        columns: AUDIT_CSV_COLUMNS,
        batches,
        separator: csvSeparatorOf(csvLanguageOf(request)),
      });
    },
  });
}
