import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParamsSchema } from '@tc/contract/paging';
import { problemSchema } from '@tc/contract/problem';
import { isProblemCode, problemText } from '@tc/contract/problem-codes';
import { userImportRoutes as routes } from '@tc/contract/routes/user-import';
import {
  USER_IMPORT_LIMITS,
  userImportJobResponseSchema,
  type UserImportRow,
} from '@tc/contract/user-import';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import {
  csvFileName,
  csvLanguageOf,
  csvSeparatorOf,
  sendCsv,
  type CsvColumn,
} from '../../http/csv';
import { AppError } from '../../http/problem';
import { registerRoute } from '../../http/register-route';
import { applyImport } from './apply';
import { requireJob, resultRowsAfter } from './queries';
import { checkImport, getImport, pageImportRows, stageUpload, toRow } from './service';

const write = { permission: 'users:write' };
const CSV_TYPE = /^text\/csv\b/i;

/** The reasons of a row's outcome, in English, for the result file. */
const reasons = (row: UserImportRow) =>
  row.problems
    .map((problem) =>
      isProblemCode(problem.code) ? problemText(problem.code, problem.params) : problem.code,
    )
    .join(' ');

const RESULT_COLUMNS: CsvColumn<UserImportRow>[] = [
  { header: 'line', value: (row) => row.line },
  { header: 'email', value: (row) => row.email },
  { header: 'first_name', value: (row) => row.firstName },
  { header: 'last_name', value: (row) => row.lastName },
  { header: 'role', value: (row) => row.role },
  { header: 'outcome', value: (row) => row.status },
  { header: 'codes', value: (row) => row.problems.map((problem) => problem.code).join(' ') },
  { header: 'reason', value: reasons },
];

/** Importing users from CSV: upload (raw text/csv), map and check, page the rows, apply, result. */
export async function userImportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // The file is read as it arrives (read-csv.ts), so the parser hands the stream on untouched.
  app.addContentTypeParser(CSV_TYPE, (_request, payload, done) => done(null, payload));

  app.route({
    method: 'POST',
    url: '/user-imports',
    config: write,
    bodyLimit: USER_IMPORT_LIMITS.maxBytes,
    schema: {
      tags: ['user-imports'],
      summary:
        'Upload a CSV file of users as the raw text/csv body (UTF-8, 50 MB, 200,000 rows, 50 columns)',
      response: {
        201: userImportJobResponseSchema,
        ...Object.fromEntries([400, 401, 403, 413, 415].map((status) => [status, problemSchema])),
      },
    },
    handler: async (request: FastifyRequest, reply) => {
      const type = request.headers['content-type'] ?? '';
      if (!CSV_TYPE.test(type)) {
        reply.header('connection', 'close');
        throw new AppError(415, 'user_import.body_not_csv');
      }
      // A charset other than UTF-8 is declared: refused before reading a byte of it.
      const charset = /charset=([^;\s]+)/i.exec(type)?.[1]?.replace(/"/g, '').toLowerCase();
      if (charset && charset !== 'utf-8' && charset !== 'utf8') {
        reply.header('connection', 'close');
        throw new AppError(400, 'user_import.not_utf8');
      }
      const length = Number(request.headers['content-length'] ?? 0);
      if (length > USER_IMPORT_LIMITS.maxBytes) {
        reply.header('connection', 'close');
        throw new AppError(413, 'user_import.file_too_large', {
          maximum: USER_IMPORT_LIMITS.maxBytes / (1024 * 1024),
        });
      }
      const body = request.body as AsyncIterable<Buffer>;
      try {
        const job = await stageUpload(ctx.db, callerOf(request), body);
        return reply.code(201).send({ data: job });
      } catch (error) {
        // The rest of a refused body is not read: the connection ends with the answer.
        reply.header('connection', 'close');
        throw error;
      }
    },
  });

  registerRoute(app, routes.get, async (request) => ({
    data: await getImport(ctx.db, callerOf(request), request.params.id),
  }));
  registerRoute(app, routes.map, async (request) => ({
    data: await checkImport(ctx.db, callerOf(request), request.params.id, request.body),
  }));
  registerRoute(app, routes.rows, async (request) => ({
    data: await pageImportRows(ctx.db, callerOf(request), request.params.id, request.body),
  }));
  registerRoute(app, routes.apply, async (request) => ({
    data: await applyImport({
      db: ctx.db,
      config: ctx.config,
      caller: callerOf(request),
      id: request.params.id,
    }),
  }));

  app.route({
    method: 'GET',
    url: '/user-imports/:id/result',
    config: write,
    schema: {
      tags: ['user-imports'],
      summary: 'Every row with its outcome (created, skipped, failed) and reasons, as CSV',
      params: idParamsSchema,
      response: Object.fromEntries([400, 401, 403, 404].map((status) => [status, problemSchema])),
    },
    handler: async (request, reply) => {
      const caller = callerOf(request);
      const { id } = request.params as { id: string };
      const job = await requireJob(ctx.db, caller.tenantId, id);
      const mapping = job.mapping as Parameters<typeof toRow>[1];
      async function* batches() {
        let afterLine = 0;
        for (;;) {
          const rows = await resultRowsAfter(ctx.db, id, afterLine);
          if (rows.length === 0) return;
          yield rows.map((row) => toRow(row, mapping));
          afterLine = rows.at(-1)!.line;
        }
      }
      // Its headers are field names; the caller's language picks the separator only.
      return sendCsv(reply, {
        fileName: csvFileName('user-import-result'),
        columns: RESULT_COLUMNS,
        batches: batches(),
        separator: csvSeparatorOf(csvLanguageOf(request)),
      });
    },
  });
}
