import { z } from 'zod';
import { pageRequestSchema, pageResponseSchema, statusSchema } from './paging';
import { multilineText, singleLineText } from './text';

const idSchema = z.uuid('id.invalid');

/** Role fields as the console sends them; the earlier client also sends `id: null`, ignored. */
export const createRoleSchema = z
  .object({
    name: singleLineText({ error: 'name.required' })
      .trim()
      .min(1, 'name.required')
      .max(100, 'text.too_long'),
    description: multilineText().trim().max(500, 'text.too_long').nullish(),
    status: statusSchema.default('active'),
    /** The permissions the role grants; omitted on update keeps the current ones. */
    permissionIds: z.array(idSchema).max(500, 'permissions.too_many').optional(),
  })
  .meta({ id: 'RoleCreate' });
export type CreateRole = z.infer<typeof createRoleSchema>;

/**
 * Create plus the id. Status has no default here: an update that leaves it out keeps the
 * role's status instead of silently re-activating an inactive role.
 */
export const updateRoleSchema = createRoleSchema
  .extend({ id: idSchema, status: statusSchema.optional() })
  .meta({ id: 'RoleUpdate' });
export type UpdateRole = z.infer<typeof updateRoleSchema>;

export const roleSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    status: statusSchema,
    /** Built-in role (Admin, Member, superAdmin): cannot be renamed, deactivated or deleted. */
    system: z.boolean(),
    permissionIds: z.array(z.uuid()),
    /** Names of `permissionIds`, in the same order. */
    permissions: z.array(z.string()),
    userCount: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof roleSchema>;

export const rolePageRequestSchema = pageRequestSchema(['name', 'status', 'createdAt'], {
  status: statusSchema.optional(),
}).meta({ id: 'RolePageRequest' });
export type RolePageRequest = z.infer<typeof rolePageRequestSchema>;

export const rolePageResponseSchema = pageResponseSchema(roleSchema).meta({ id: 'RolePage' });
