import { and, asc, eq, exists, gt, sql } from 'drizzle-orm';
import { rolePageRequestSchema } from '@tc/contract/roles';
import { userPageRequestSchema, type User } from '@tc/contract/users';
import { roles, userCounts } from '../../db/schema/identity';
import { projects } from '../../db/schema/projects';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText } from '../../http/paging';
import { owner, ownerName } from '../projects';
import { rolesService } from '../roles';
import { pageUsers } from '../users';

/**
 * The lookups the tools make to turn a name into an id. A tool may only tell the model what
 * its caller could read through the API, so each lookup searches only what the caller's
 * permissions show: a name that is not visible is answered exactly like one that does not exist.
 */

export interface Named {
  id: string;
  name: string;
}

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
  const held = ctx.db
    .select({ one: sql`1` })
    .from(userCounts)
    .where(
      and(
        eq(userCounts.tenantId, roles.tenantId),
        eq(userCounts.roleId, roles.id),
        gt(userCounts.n, 0),
      ),
    );
  const found = await ctx.db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(
      and(eq(roles.tenantId, ctx.caller.tenantId), containsText(roles.name, name), exists(held)),
    )
    .orderBy(asc(sql`lower(${roles.name})`), asc(roles.id))
    .limit(100);
  return pick(found, name);
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
  return ctx.db
    .selectDistinct({ id: owner.id, name: ownerName })
    .from(projects)
    .innerJoin(owner, and(eq(owner.id, projects.ownerId), eq(owner.tenantId, projects.tenantId)))
    .where(and(eq(projects.tenantId, ctx.caller.tenantId), containsText(ownerName, name.trim())))
    .orderBy(asc(ownerName), asc(owner.id))
    .limit(10);
}
