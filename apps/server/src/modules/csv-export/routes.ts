import type { FastifyInstance } from 'fastify';
import { problemSchema } from '@tc/contract/problem';
import { projectPageRequestSchema } from '@tc/contract/projects';
import { userPageRequestSchema } from '@tc/contract/users';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { csvFileName, csvLanguageOf, csvSeparatorOf, sendCsv } from '../../http/csv';
import { projectExportBatches, type ProjectExportRequest } from '../projects';
import { userExportBatches, type UserExportRequest } from '../users';
import { projectColumns, userColumns } from './columns';

/**
 * Rows read a statement at a time: large enough that a million rows are a few hundred round
 * trips, small enough that one batch is a few megabytes at most.
 */
export const EXPORT_BATCH_SIZE = 2_000;

const problems = { 400: problemSchema, 401: problemSchema, 403: problemSchema };
// The list's own request; its paging (an export holds every match) is accepted and ignored.
const userExportSchema = userPageRequestSchema.omit({ pageIndex: true, pageSize: true });
const projectExportSchema = projectPageRequestSchema.omit({ pageIndex: true, pageSize: true });

/**
 * POST /users/export and /projects/export: the list's filter, search and sort as a CSV file,
 * streamed batch by batch (http/csv.ts), in the caller's language (Accept-Language): its
 * headers, and its separator (`,` in English, `;` in German, French and Italian).
 * Registered by hand: the answer is not JSON.
 */
export async function csvExportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.route({
    method: 'POST',
    url: '/users/export',
    config: { permission: 'users:read' },
    schema: {
      tags: ['users'],
      summary: "The users list as CSV: the list's filter, search and sort, every matching row",
      body: userExportSchema,
      response: problems,
    },
    handler: (request, reply) => {
      const { tenantId } = callerOf(request);
      const body = request.body as UserExportRequest;
      const batches = userExportBatches(ctx.db, tenantId, body, EXPORT_BATCH_SIZE);
      const language = csvLanguageOf(request);
      return sendCsv(reply, {
        fileName: csvFileName('users'),
        columns: userColumns(language),
        batches,
        separator: csvSeparatorOf(language),
      });
    },
  });

  app.route({
    method: 'POST',
    url: '/projects/export',
    config: { permission: 'projects:read' },
    schema: {
      tags: ['projects'],
      summary: "The projects list as CSV: the list's filter, search and sort, every matching row",
      body: projectExportSchema,
      response: problems,
    },
    handler: (request, reply) => {
      const { tenantId } = callerOf(request);
      const body = request.body as ProjectExportRequest;
      const batches = projectExportBatches(ctx.db, tenantId, body, EXPORT_BATCH_SIZE);
      const language = csvLanguageOf(request);
      return sendCsv(reply, {
        fileName: csvFileName('projects'),
        columns: projectColumns(language),
        batches,
        separator: csvSeparatorOf(language),
      });
    },
  });
}
