import { z } from 'zod';
import { envelope } from './problem';
import { pageRequestSchema, pageResponseSchema, statusSchema } from './paging';
import { singleLineText } from './text';

const nameSchema = (field: 'first_name' | 'last_name') =>
  singleLineText({ error: `user.${field}_required` })
    .trim()
    .min(1, `user.${field}_required`)
    .max(100, `user.${field}_too_long`);

/** Stored lower-case: e-mail addresses are unique per tenant regardless of case. */
const emailSchema = singleLineText({ error: 'email.required' })
  .trim()
  .toLowerCase()
  .max(254, 'email.too_long')
  .check(z.email('email.invalid'));

/**
 * Adding a user (firstName, lastName, email, roleId). No password: the user is
 * invited and sets one later; a `password` sent here is ignored.
 */
export const userCreateSchema = z
  .object({
    firstName: nameSchema('first_name'),
    lastName: nameSchema('last_name'),
    email: emailSchema,
    roleId: z.uuid('user.role_required'),
    status: statusSchema.default('active'),
  })
  .meta({ id: 'UserCreate' });
export type UserCreate = z.infer<typeof userCreateSchema>;

/**
 * Editing a user. A missing `status` keeps the current one, so a client that leaves it out
 * never re-activates a deactivated user by accident.
 */
export const userUpdateSchema = userCreateSchema
  .extend({ id: z.uuid('id.not_valid'), status: statusSchema.optional() })
  .meta({ id: 'UserUpdate' });
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** A user as lists and forms show it; `invited`: no password set yet. */
export const userSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    roleId: z.uuid(),
    role: z.string(),
    status: statusSchema,
    invited: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const USER_SORT_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'status',
  'role',
  'createdAt',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** The console sorts users by e-mail: names repeat, addresses do not. */
export const userPageRequestSchema = pageRequestSchema(USER_SORT_FIELDS, {
  status: statusSchema.optional(),
  roleId: z.uuid('user.role_id_invalid').optional(),
}).meta({ id: 'UserPageRequest' });
export type UserPageRequest = z.infer<typeof userPageRequestSchema>;

export const userPageResponseSchema = pageResponseSchema(userSchema).meta({
  id: 'UserPage',
});
export const userResponseSchema = envelope(userSchema);
