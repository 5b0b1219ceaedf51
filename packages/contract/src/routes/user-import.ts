import { idParamsSchema } from '../paging';
import {
  userImportJobResponseSchema,
  userImportMappingRequestSchema,
  userImportRowPageRequestSchema,
  userImportRowPageResponseSchema,
} from '../user-import';
import { defineRoute } from '../route';

/**
 * Importing users from a CSV file. The upload (`POST /user-imports`, the file as a raw
 * `text/csv` body) and the result file (`GET /user-imports/:id/result`) are not JSON and are
 * registered by hand; these are the JSON steps between them.
 */
export const userImportRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/user-imports/:id',
    params: idParamsSchema,
    response: userImportJobResponseSchema,
    permission: 'users:write',
    problems: [404],
    summary: 'An import: its columns, suggested mapping, totals and progress',
  }),
  map: defineRoute({
    method: 'PUT',
    path: '/user-imports/:id/mapping',
    params: idParamsSchema,
    body: userImportMappingRequestSchema,
    response: userImportJobResponseSchema,
    permission: 'users:write',
    problems: [404, 409],
    summary: 'Choose the columns of the fields and check every row (the preview totals)',
  }),
  rows: defineRoute({
    method: 'POST',
    path: '/user-imports/:id/rows',
    params: idParamsSchema,
    body: userImportRowPageRequestSchema,
    response: userImportRowPageResponseSchema,
    permission: 'users:write',
    problems: [404],
    summary: 'A page of the checked rows with their problems (or, once applied, outcomes)',
  }),
  apply: defineRoute({
    method: 'POST',
    path: '/user-imports/:id/apply',
    params: idParamsSchema,
    response: userImportJobResponseSchema,
    permission: 'users:write',
    problems: [404, 409],
    summary: 'Create the valid rows in batches; applying again continues an interrupted run',
  }),
};
