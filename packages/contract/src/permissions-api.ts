import { z } from 'zod';
import { pageRequestSchema, pageResponseSchema } from './paging';
import { multilineText, singleLineText } from './text';

const idSchema = z.uuid('id.invalid');

/** A permission as the console sends it: a name like `reports:export` and its roles. */
export const createPermissionSchema = z
  .object({
    name: singleLineText({ error: 'name.required' })
      .trim()
      .min(1, 'name.required')
      .max(100, 'text.too_long')
      .regex(/^[A-Za-z0-9:_.-]+$/, 'permission.name_pattern'),
    description: multilineText().trim().max(500, 'text.too_long').nullish(),
    roleIds: z
      .array(idSchema, { error: 'roles.at_least_one' })
      .min(1, 'roles.at_least_one')
      .max(100, 'roles.too_many'),
  })
  .meta({ id: 'PermissionCreate' });
export type CreatePermission = z.infer<typeof createPermissionSchema>;

/** One object, create plus the id (the earlier client's array payload was a defect, not repeated). */
export const updatePermissionSchema = createPermissionSchema
  .extend({ id: idSchema })
  .meta({ id: 'PermissionUpdate' });
export type UpdatePermission = z.infer<typeof updatePermissionSchema>;

export const permissionSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    /** Seeded for every tenant: may be given to roles, not renamed or deleted. */
    system: z.boolean(),
    roleIds: z.array(z.uuid()),
    /** Names of `roleIds`, in the same order. */
    roles: z.array(z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Permission' });
export type Permission = z.infer<typeof permissionSchema>;

export const permissionPageRequestSchema = pageRequestSchema(['name', 'createdAt'], {
  roleId: idSchema.optional(),
}).meta({ id: 'PermissionPageRequest' });
export type PermissionPageRequest = z.infer<typeof permissionPageRequestSchema>;

export const permissionPageResponseSchema = pageResponseSchema(permissionSchema).meta({
  id: 'PermissionPage',
});
