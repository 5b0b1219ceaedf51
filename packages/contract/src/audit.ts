import { z } from 'zod';
import { pageRequestSchema, pageResponseSchema, sortDirectionSchema } from './paging';
import { singleLineText } from './text';

export const AUDIT_ACTIONS = ['create', 'update', 'delete'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One audit entry, written in its change's transaction: who did what
 * to which entity, with the entity before and
 * after. `actorEmail` is null when the actor is gone (the history outlives its users) or when
 * the change was made by the system.
 */
export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    actorId: z.uuid().nullable(),
    actorEmail: z.string().nullable(),
    action: z.string(),
    entity: z.string(),
    entityId: z.string(),
    before: z.unknown(),
    after: z.unknown(),
    createdAt: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * The entities the server records changes of, offered by the console's entity filter. The
 * filter itself takes any name, so an entry of an entity added later stays findable.
 */
export const AUDIT_ENTITIES = [
  'users',
  'roles',
  'permissions',
  'projects',
  'clients',
  'tenants',
  'settings',
  'onboarding',
  'webhooks',
  'user-imports',
] as const;

export const AUDIT_SORT_FIELDS = ['createdAt', 'entity', 'action'] as const;
export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];

const auditSortSchema = z.object({
  field: z.enum(AUDIT_SORT_FIELDS),
  direction: sortDirectionSchema.default(1),
});

/**
 * A point in time bounding the list: an ISO 8601 date-time with `Z` or an offset
 * (`2026-11-26T00:00:00Z`, `2026-11-26T01:00:00+01:00`). The year 0000 is refused, as the
 * database has no such year.
 */
const auditTimeSchema = z.iso
  .datetime({ offset: true, message: 'audit.time_invalid' })
  .max(40, 'audit.time_invalid')
  .refine((text) => !text.startsWith('0000'), 'audit.time_invalid');

/**
 * The filters of the list and of its export. `from` is inclusive and `to` exclusive: entries
 * made at or after `from` and before `to`, so consecutive ranges never share an entry.
 */
export const auditFilterShape = {
  entity: singleLineText().trim().min(1).max(100).optional(),
  entityId: singleLineText().trim().min(1).max(200).optional(),
  action: z.enum(AUDIT_ACTIONS, 'audit.action_invalid').optional(),
  actorId: z.uuid('audit.actor_invalid').optional(),
  from: auditTimeSchema.optional(),
  to: auditTimeSchema.optional(),
};

/** A range ending before it starts is refused, naming `filter.to`. */
function refuseReversedRange(
  { filter }: { filter: { from?: string | undefined; to?: string | undefined } },
  context: z.RefinementCtx,
) {
  if (filter.from && filter.to && Date.parse(filter.from) > Date.parse(filter.to)) {
    context.addIssue({ code: 'custom', path: ['filter', 'to'], message: 'audit.range_reversed' });
  }
}

/** Newest first unless the client asks otherwise: an audit log is read from the top. */
export const auditPageRequestSchema = pageRequestSchema(AUDIT_SORT_FIELDS, auditFilterShape)
  .extend({
    listSort: auditSortSchema.default({ field: 'createdAt', direction: 1 }),
  })
  .superRefine(refuseReversedRange)
  .meta({ id: 'AuditPageRequest' });
export type AuditPageRequest = z.infer<typeof auditPageRequestSchema>;
export type AuditFilter = AuditPageRequest['filter'];

/**
 * The export takes the list's request as it is, so a console sends what it shows: the filter,
 * the search and the sort decide the file's rows and their order; `pageIndex` and `pageSize`
 * are accepted and ignored, as the file holds every matching entry.
 */
export const auditExportRequestSchema = auditPageRequestSchema.meta({ id: 'AuditExportRequest' });
export type AuditExportRequest = AuditPageRequest;

export const auditPageResponseSchema = pageResponseSchema(auditEntrySchema).meta({
  id: 'AuditPage',
});
