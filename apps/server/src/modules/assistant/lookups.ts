import { rolePageRequestSchema } from '@tc/contract/roles';
import { userPageRequestSchema, type User } from '@tc/contract/users';
import type { ServiceContext } from '../../http/crud-routes';
import { rolesService } from '../roles';
import { pageUsers } from '../users';
import { heldRolesNamed, projectOwnersNamed, type Named } from './queries';

/**
 * The lookups the tools make to turn a name into an id. A tool may only tell the model what
 * its caller could read through the API, so each lookup searches only what the caller's
 * permissions show: a name that is not visible is answered exactly like one that does not exist.
 * These are the rules of what is visible; the SQL is in queries.ts.
 */

export const may = (ctx: ServiceContext, permission: string) =>
  ctx.caller.permissions.includes(permission);

export const userPage = (ctx: ServiceContext, filter: object, pageSize: number) =>
  pageUsers({ ...ctx, request: userPageRequestSchema.parse({ pageSize, filter }) });

/** The exact name (any case) first, else the first that contains it. */
const pick = (found: Named[], name: string) =>
  found.find((one) => one.name.toLowerCase() === name.toLowerCase()) ?? found[0];

/**
 * A role named `name`. With `roles:read` any role of the tenant; without it only the roles
 * the user list shows (`users:read`): those some user holds. A role nobody holds, and its
 * exact spelling, are only readable through the roles API.
 */
export async function findRole(ctx: ServiceContext, name: string): Promise<Named | undefined> {
  if (may(ctx, 'roles:read')) {
    const request = rolePageRequestSchema.parse({ pageSize: 100, filter: { search: name } });
    return pick((await rolesService.page({ ...ctx, request })).data, name);
  }
  return pick(await heldRolesNamed(ctx.db, ctx.caller.tenantId, name), name);
}

/** Users whose full name or e-mail contains `name` ("Anna", "Anna Berg", "anna@"). */
async function usersNamed(ctx: ServiceContext, name: string): Promise<User[]> {
  const wanted = name.trim().toLowerCase();
  const { data } = await userPage(ctx, { search: wanted.split(/\s+/)[0] }, 100);
  return data.filter((user) =>
    `${user.firstName} ${user.lastName}\n${user.email}`.toLowerCase().includes(wanted),
  );
}

/**
 * The people whose projects `name` asks for, at most 10. With `users:read` any user whose
 * name or e-mail matches; without it only owners of projects, by the full name the project
 * list shows (`projects:read`), so neither e-mail addresses nor users without a project show.
 */
export async function findOwners(ctx: ServiceContext, name: string): Promise<Named[]> {
  if (may(ctx, 'users:read')) {
    const found = await usersNamed(ctx, name);
    return found.slice(0, 10).map((user) => ({
      id: user.id,
      name: `${user.firstName} ${user.lastName}`,
    }));
  }
  return projectOwnersNamed(ctx.db, ctx.caller.tenantId, name.trim());
}
