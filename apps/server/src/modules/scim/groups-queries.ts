import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database';
import { roles, users } from '../../db/schema/identity';
import { badRequest, notFound } from './errors';
import { bareAttributePath, filterToSql, parseFilter, type FilterAttribute } from './filter';
import type { ListParams } from './request-params';
import { versionOf } from './user-resource';
import { isUuid } from '@tc/contract/text';

export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
/** A group's members listed at most: a role held by a million users is read by filter instead. */
export const MAX_MEMBERS_LISTED = 10_000;

export interface GroupRow {
  id: string;
  name: string;
  isSystem: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const groupColumns = {
  id: roles.id,
  name: roles.name,
  isSystem: roles.isSystem,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
};

/** Whether a user of the role has this id: `members eq` and `members.value eq`. */
const memberFilter: FilterAttribute = {
  type: 'custom',
  build(op, value) {
    if (op === 'pr') {
      return sql`exists (select 1 from ${users} where ${users.roleId} = ${roles.id})`;
    }
    if (op !== 'eq' || typeof value !== 'string') {
      throw badRequest('invalidFilter', 'Members are filtered with eq and a user id');
    }
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
      return sql`false`;
    }
    return sql`exists (select 1 from ${users} where ${users.id} = ${value}::uuid and ${users.roleId} = ${roles.id})`;
  },
};

/** Roles keep no external id: a filter on it matches none (and `not` all). */
const noExternalId: FilterAttribute = { type: 'custom', build: () => sql`false` };

const GROUP_ATTRIBUTES: Record<string, FilterAttribute> = {
  id: { type: 'id', expr: sql`${roles.id}` },
  displayname: { type: 'string', expr: sql`${roles.name}`, caseExact: false },
  externalid: noExternalId,
  members: memberFilter,
  'members.value': memberFilter,
  'meta.created': { type: 'dateTime', expr: sql`${roles.createdAt}` },
  'meta.lastmodified': { type: 'dateTime', expr: sql`${roles.updatedAt}` },
};

const SORTS: Record<string, AnyPgColumn> = {
  id: roles.id,
  displayname: roles.name,
  'meta.created': roles.createdAt,
  'meta.lastmodified': roles.updatedAt,
};

function orderOf(params: ListParams): SQL[] {
  if (params.sortBy === undefined) return [asc(roles.createdAt), asc(roles.id)];
  const column = SORTS[bareAttributePath(params.sortBy, GROUP_SCHEMA)];
  if (!column) throw badRequest('invalidValue', `Groups cannot be sorted by "${params.sortBy}"`);
  const direction = params.descending ? desc : asc;
  return [direction(column), direction(roles.id)];
}

export async function listGroupRows(db: Database, tenantId: string, params: ListParams) {
  const lookup = (path: string) => GROUP_ATTRIBUTES[bareAttributePath(path, GROUP_SCHEMA)];
  const where = and(
    eq(roles.tenantId, tenantId),
    params.filter === undefined ? undefined : filterToSql(parseFilter(params.filter), lookup),
  );
  const [totals] = await db.select({ n: count() }).from(roles).where(where);
  const total = totals?.n ?? 0;
  if (params.count === 0 || total < params.startIndex) return { total, rows: [] };
  const rows = await db
    .select(groupColumns)
    .from(roles)
    .where(where)
    .orderBy(...orderOf(params))
    .limit(params.count)
    .offset(params.startIndex - 1);
  return { total, rows };
}

export async function requireGroupRow(
  db: Database,
  tenantId: string,
  id: string,
  lock = false,
): Promise<GroupRow> {
  if (!isUuid(id)) throw notFound('Group not found');
  const query = db
    .select(groupColumns)
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.id, id)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('Group not found');
  return row;
}

/** The users holding a role, oldest first, up to the listing cap. */
export function membersOf(db: Database, tenantId: string, roleId: string) {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.roleId, roleId)))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(MAX_MEMBERS_LISTED);
}

export function toScimGroup(
  row: GroupRow,
  baseUrl: string,
  members?: Array<{ id: string; email: string }>,
) {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    displayName: row.name,
    ...(members
      ? {
          members: members.map((member) => ({
            value: member.id,
            display: member.email,
            type: 'User',
            $ref: `${baseUrl}/Users/${member.id}`,
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${baseUrl}/Groups/${row.id}`,
      version: versionOf(row.updatedAt),
    },
  };
}
