import { and, eq, sql } from 'drizzle-orm';
import { singleLineText } from '@tc/contract/text';
import type { Database } from '../../db/database';
import { uniqueViolation } from '../../db/errors';
import { roles } from '../../db/schema/identity';
import type { ChangeAction } from '../audit';
import { insertRole } from '../roles';
import { badRequest, uniqueness } from './errors';
import { parseFilter } from './filter';
import { addMembers, memberIds, removeMembers, replaceMembers } from './group-members';
import { requireHoldsRole } from './grants';
import {
  GROUP_SCHEMA,
  listGroupRows,
  membersOf,
  requireGroupRow,
  toScimGroup,
  type GroupRow,
} from './groups-queries';
import { readPatchOperations, splitPath } from './patch-ops';
import { requireVersion, type ListParams } from './request-params';
import { versionOf } from './user-resource';
import { recordScimChange, type ScimScope } from './users-service';

const displayNameText = singleLineText().trim().min(1).max(100);
const GROUP_ATTRIBUTES = new Set(['schemas', 'id', 'externalid', 'displayname', 'members', 'meta']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readDisplayName(value: unknown): string {
  const parsed = displayNameText.safeParse(value);
  if (!parsed.success) {
    throw badRequest('invalidValue', 'displayName must be one line of 1 to 100 characters');
  }
  return parsed.data;
}

function readGroupBody(body: unknown) {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object');
  const fields = new Map(Object.entries(body).map(([key, value]) => [key.toLowerCase(), value]));
  for (const key of fields.keys()) {
    if (!GROUP_ATTRIBUTES.has(key)) throw badRequest('invalidSyntax', `Unknown attribute "${key}"`);
  }
  const members = fields.get('members');
  return {
    name: readDisplayName(fields.get('displayname')),
    memberIds: members === undefined || members === null ? [] : memberIds(members),
  };
}

async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error) === 'roles_tenant_name_key') {
      throw uniqueness('A group with this displayName exists');
    }
    throw error;
  }
}

const audit = (
  tx: Database,
  scope: ScimScope,
  action: ChangeAction,
  before?: GroupRow,
  after?: GroupRow,
) =>
  recordScimChange(
    tx,
    scope,
    { entity: 'roles', action, id: (after ?? before)!.id },
    before,
    after,
  );

async function groupResource(db: Database, scope: ScimScope, row: GroupRow, withMembers: boolean) {
  const members = withMembers ? await membersOf(db, scope.client.tenantId, row.id) : undefined;
  return toScimGroup(row, scope.baseUrl, members);
}

export async function listGroups(scope: ScimScope, params: ListParams, withMembers: boolean) {
  const { total, rows } = await listGroupRows(scope.ctx.db, scope.client.tenantId, params);
  const resources = [];
  for (const row of rows)
    resources.push(await groupResource(scope.ctx.db, scope, row, withMembers));
  return { total, resources };
}

export async function getGroup(scope: ScimScope, id: string, withMembers: boolean) {
  const row = await requireGroupRow(scope.ctx.db, scope.client.tenantId, id);
  return groupResource(scope.ctx.db, scope, row, withMembers);
}

/** A new role without permissions (granted in the console), with its first members. */
export function createGroup(scope: ScimScope, body: unknown) {
  const group = readGroupBody(body);
  const tenantId = scope.client.tenantId;
  return scope.ctx.db.transaction(async (tx) => {
    const id = await uniquely(() =>
      insertRole(tx, {
        tenantId,
        name: group.name,
        description: `Provisioned by SCIM (${scope.client.clientId}).`,
        permissionIds: [],
      }),
    );
    await addMembers(tx, scope, id, group.memberIds);
    const after = await requireGroupRow(tx, tenantId, id);
    await audit(tx, scope, 'create', undefined, after);
    return groupResource(tx, scope, after, true);
  });
}

async function lockGroup(tx: Database, scope: ScimScope, id: string, ifMatch?: string) {
  const before = await requireGroupRow(tx, scope.client.tenantId, id, true);
  requireVersion(ifMatch, versionOf(before.updatedAt));
  return before;
}

async function rename(tx: Database, scope: ScimScope, group: GroupRow, name: string) {
  if (name === group.name) return;
  if (group.isSystem) throw badRequest('mutability', 'A built-in group cannot be renamed');
  await requireHoldsRole(tx, scope.client, group.id, 'Renaming this group');
  await uniquely(() =>
    tx
      .update(roles)
      .set({ name, updatedAt: sql`greatest(now(), ${roles.updatedAt} + interval '1 millisecond')` })
      .where(and(eq(roles.tenantId, scope.client.tenantId), eq(roles.id, group.id))),
  );
}

async function finish(tx: Database, scope: ScimScope, before: GroupRow) {
  const after = await requireGroupRow(tx, scope.client.tenantId, before.id);
  await audit(tx, scope, 'update', before, after);
  return groupResource(tx, scope, after, true);
}

export function replaceGroup(scope: ScimScope, id: string, body: unknown, ifMatch?: string) {
  const group = readGroupBody(body);
  return scope.ctx.db.transaction(async (tx) => {
    const before = await lockGroup(tx, scope, id, ifMatch);
    await rename(tx, scope, before, group.name);
    await replaceMembers(tx, scope, id, group.memberIds);
    return finish(tx, scope, before);
  });
}

/** The user ids of `members[value eq "…" or value eq "…"]`. */
function idsOfMemberFilter(rest: string): string[] {
  const filter = parseFilter(`members${rest}`);
  const ids: string[] = [];
  const collect = (part: typeof filter): void => {
    if (part.op === '[]') return collect(part.valFilter);
    if (part.op === 'or') return part.filters.forEach(collect);
    if (
      part.op === 'eq' &&
      part.attrPath.toLowerCase() === 'value' &&
      typeof part.compValue === 'string'
    ) {
      ids.push(...memberIds({ value: part.compValue }));
      return;
    }
    throw badRequest('invalidFilter', 'Members are chosen with value eq "<user id>"');
  };
  collect(filter);
  return ids;
}

/**
 * displayName and members are the group's writable attributes; externalId is accepted and
 * not kept. Operations run in order, in one transaction.
 */
export function patchGroup(scope: ScimScope, id: string, body: unknown, ifMatch?: string) {
  const operations = readPatchOperations(body);
  return scope.ctx.db.transaction(async (tx) => {
    const before = await lockGroup(tx, scope, id, ifMatch);
    for (const operation of operations) {
      const entries: Array<[string, string, unknown]> = operation.path
        ? [
            [...Object.values(splitPath(operation.path, GROUP_SCHEMA)), operation.value] as [
              string,
              string,
              unknown,
            ],
          ]
        : isObject(operation.value)
          ? Object.entries(operation.value).map(([key, value]) => [key, '', value])
          : [];
      if (entries.length === 0)
        throw badRequest('invalidValue', 'Without a path, the value is an object');
      for (const [root, rest, value] of entries) {
        const attribute = root.toLowerCase();
        if (attribute === 'displayname' && rest === '' && operation.op !== 'remove') {
          await rename(tx, scope, before, readDisplayName(value));
        } else if (attribute === 'members' && operation.op === 'add') {
          await addMembers(tx, scope, id, memberIds(value));
        } else if (attribute === 'members' && operation.op === 'replace') {
          await replaceMembers(tx, scope, id, memberIds(value));
        } else if (attribute === 'members' && operation.op === 'remove') {
          const ids = rest.startsWith('[')
            ? idsOfMemberFilter(rest)
            : value === undefined
              ? undefined
              : memberIds(value);
          await removeMembers(tx, scope, id, ids);
        } else if (attribute === 'externalid' || attribute === 'schemas') {
          continue;
        } else if (attribute === 'id' && value === id) {
          // Okta's rename repeats the group's own id beside the new displayName.
          continue;
        } else if (attribute === 'id' || attribute === 'meta' || attribute === 'displayname') {
          throw badRequest('mutability', `The attribute "${root}" cannot be changed this way`);
        } else {
          throw badRequest('invalidPath', `Unknown attribute "${root}"`);
        }
      }
    }
    return finish(tx, scope, before);
  });
}

/** Deletes a role made for provisioning; its members join Member first. Built-in ones stay. */
export function deleteGroup(scope: ScimScope, id: string, ifMatch?: string) {
  return scope.ctx.db.transaction(async (tx) => {
    const before = await lockGroup(tx, scope, id, ifMatch);
    if (before.isSystem) throw badRequest('mutability', 'A built-in group cannot be deleted');
    await requireHoldsRole(tx, scope.client, id, 'Deleting this group');
    await removeMembers(tx, scope, id, undefined);
    await tx.delete(roles).where(and(eq(roles.tenantId, scope.client.tenantId), eq(roles.id, id)));
    await audit(tx, scope, 'delete', before);
  });
}
