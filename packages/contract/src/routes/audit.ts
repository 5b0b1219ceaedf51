import { auditPageRequestSchema, auditPageResponseSchema } from '../audit';
import { defineRoute } from '../route';

/** Read-only: entries are written by the server as data changes. */
export const auditRoutes = {
  page: defineRoute({
    method: 'POST',
    path: '/audit/page',
    body: auditPageRequestSchema,
    response: auditPageResponseSchema,
    permission: 'audit:read',
    summary: "A page of the tenant's audit log, newest first by default",
  }),
};
