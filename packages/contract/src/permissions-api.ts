import { z } from 'zod';
import { pageRequestSchema, pageResponseSchema } from './paging';
import { multilineText, singleLineText } from './text';

const idSchema = z.uuid('must be an id');

/** A permission as the console sends it: a name like `reports:export` and its roles. */
export const createPermissionSchema = z
  .object({
    name: singleLineText({ error: 'Enter a name.' })
      .trim()
      .min(1, 'Enter a name.')
      .max(100, 'Use at most 100 characters.')
      .regex(/^[A-Za-z0-9:_.-]+$/, 'Use letters, digits and : _ - . only, e.g. reports:export.'),
    description: multilineText().trim().max(500, 'Use at most 500 characters.').nullish(),
    roleIds: z
      .array(idSchema, { error: 'Choose at least one role.' })
      .min(1, 'Choose at least one role.')
      .max(100, 'Choose at most 100 roles.'),
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
