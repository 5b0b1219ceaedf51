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

export const AUDIT_SORT_FIELDS = ['createdAt', 'entity', 'action'] as const;
export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];

const auditSortSchema = z.object({
  field: z.enum(AUDIT_SORT_FIELDS),
  direction: sortDirectionSchema.default(1),
});

/** Newest first unless the client asks otherwise: an audit log is read from the top. */
export const auditPageRequestSchema = pageRequestSchema(AUDIT_SORT_FIELDS, {
  entity: singleLineText().trim().min(1).max(100).optional(),
  entityId: singleLineText().trim().min(1).max(200).optional(),
  action: z.enum(AUDIT_ACTIONS, 'audit.action_invalid').optional(),
  actorId: z.uuid('audit.actor_invalid').optional(),
})
  .extend({
    listSort: auditSortSchema.default({ field: 'createdAt', direction: 1 }),
  })
  .meta({ id: 'AuditPageRequest' });
export type AuditPageRequest = z.infer<typeof auditPageRequestSchema>;

export const auditPageResponseSchema = pageResponseSchema(auditEntrySchema).meta({
  id: 'AuditPage',
});
