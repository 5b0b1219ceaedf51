import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database';
import { roles, userCounts, users } from '../../db/schema/identity';
import { badRequest, notFound } from './errors';
import { bareAttributePath, filterToSql, parseFilter, type FilterAttribute } from './filter';
import type { ListParams } from './request-params';
import { USER_SCHEMA, type ScimUserRow } from './user-resource';
import { isUuid } from '@tc/contract/text';

export const userColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  status: users.status,
  externalId: users.externalId,
  roleId: users.roleId,
  roleName: roles.name,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

const text = (expr: SQL | AnyPgColumn, caseExact = false, nullable = false) =>
  ({ type: 'string', expr: sql`${expr}`, caseExact, nullable }) as const;

/**
 * The User attributes a filter may name, and their SQL. userName and the e-mails are one
 * column, compared lower-case: `userName eq` reads the unique index on lower(email).
 */
const USER_ATTRIBUTES: Record<string, FilterAttribute> = {
  id: { type: 'id', expr: sql`${users.id}` },
  username: text(users.email),
  emails: text(users.email),
  'emails.value': text(users.email),
  'emails.type': { type: 'constant', value: 'work' },
  'emails.primary': { type: 'constant', value: true },
  externalid: text(users.externalId, true, true),
  'name.givenname': text(users.firstName),
  'name.familyname': text(users.lastName),
  'name.formatted': text(sql`(${users.firstName} || ' ' || ${users.lastName})`),
  displayname: text(sql`(${users.firstName} || ' ' || ${users.lastName})`),
  active: { type: 'boolean', expr: sql`(${users.status} = 'active')` },
  'meta.created': { type: 'dateTime', expr: sql`${users.createdAt}` },
  'meta.lastmodified': { type: 'dateTime', expr: sql`${users.updatedAt}` },
  groups: { type: 'id', expr: sql`${users.roleId}` },
  'groups.value': { type: 'id', expr: sql`${users.roleId}` },
  'groups.display': text(
    sql`(select ${roles.name} from ${roles} where ${roles.id} = ${users.roleId})`,
  ),
};

const userAttribute = (path: string) => USER_ATTRIBUTES[bareAttributePath(path, USER_SCHEMA)];

const SORTS: Record<string, AnyPgColumn> = {
  id: users.id,
  username: users.email,
  'emails.value': users.email,
  externalid: users.externalId,
  'name.givenname': users.firstName,
  'name.familyname': users.lastName,
  displayname: users.firstName,
  'meta.created': users.createdAt,
  'meta.lastmodified': users.updatedAt,
};

function orderOf(params: ListParams): SQL[] {
  const direction = params.descending ? desc : asc;
  if (params.sortBy === undefined) return [asc(users.createdAt), asc(users.id)];
  const column = SORTS[bareAttributePath(params.sortBy, USER_SCHEMA)];
  if (!column) throw badRequest('invalidValue', `Users cannot be sorted by "${params.sortBy}"`);
  return [direction(column), direction(users.id)];
}

/** A page of the tenant's users; the filter is SQL, never applied in memory. */
export async function listUserRows(
  db: Database,
  tenantId: string,
  params: ListParams,
): Promise<{ total: number; rows: ScimUserRow[] }> {
  const where = and(
    eq(users.tenantId, tenantId),
    params.filter === undefined
      ? undefined
      : filterToSql(parseFilter(params.filter), userAttribute),
  );
  // Without a filter the total is the tenant's user count, kept by triggers (user_counts),
  // instead of counting a million rows for every page of a full import.
  const [totals] =
    params.filter === undefined
      ? await db
          .select({ n: sql<number>`coalesce(sum(${userCounts.n}), 0)::int` })
          .from(userCounts)
          .where(eq(userCounts.tenantId, tenantId))
      : await db.select({ n: count() }).from(users).where(where);
  const total = Number(totals?.n ?? 0);
  if (params.count === 0 || total < params.startIndex) return { total, rows: [] };
  const rows = await db
    .select(userColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(where)
    .orderBy(...orderOf(params))
    .limit(params.count)
    .offset(params.startIndex - 1);
  return { total, rows };
}

/** The user `id` of this tenant, locked for the transaction when `lock` is set; else 404. */
export async function requireUserRow(
  db: Database,
  tenantId: string,
  id: string,
  lock = false,
): Promise<ScimUserRow> {
  if (!isUuid(id)) throw notFound('User not found');
  if (lock) {
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
      .for('update');
  }
  const [row] = await db
    .select(userColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  if (!row) throw notFound('User not found');
  return row;
}
