import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '@tc/contract/permissions-api';
import type { Role } from '@tc/contract/roles';
import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import { auditLog } from '../../db/schema/audit';
import {
  callApi,
  createSignedInTenant,
  signIn,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { insertUser } from '../users';

let server: TestServer;
let tenantA: TenantFixture;
let tenantB: TenantFixture;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token: tokenA, ...tenantA } = await createSignedInTenant(server));
  ({ token: tokenB, ...tenantB } = await createSignedInTenant(server));
});
afterAll(() => server?.close());

const call = <Row = Permission>(token: string, method: string, path: string, body?: unknown) =>
  callApi<Row>(server, token, method, path, body);

const createPermission = async (data: Record<string, unknown>, token = tokenA) => {
  const answer = await call(token, 'POST', '/permissions/create', data);
  expect(answer.status).toBe(201);
  return answer.body.data as Permission;
};

const systemPermission = async (name: string) =>
  (await call(tokenA, 'GET', `/permissions/${tenantA.permissionIds.get(name)}`)).body
    .data as Permission;

/** A user of `tenant` holding a fresh role with the given permission ids. */
async function userWithRole(tenant: TenantFixture, permissionIds: string[]) {
  const db = server.database.db;
  const email = `${uniqueName('u')}@${tenant.domain}`;
  const roleId = await insertRole(db, {
    tenantId: tenant.tenantId,
    name: uniqueName('role'),
    permissionIds,
  });
  await insertUser(db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Pat',
    lastName: 'Permission',
    roleId,
    password: TEST_PASSWORD,
  });
  return { roleId, email };
}

describe('permissions CRUD', () => {
  it('creates a permission for roles and answers the row shape', async () => {
    const permission = await createPermission({
      name: ' reports:export ',
      description: 'Exports reports.',
      roleIds: [tenantA.memberRoleId, tenantA.adminRoleId],
    });
    expect(permission).toEqual({
      id: expect.any(String),
      name: 'reports:export',
      description: 'Exports reports.',
      system: false,
      roleIds: [tenantA.adminRoleId, tenantA.memberRoleId],
      roles: ['Admin', 'Member'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const fetched = await call(tokenA, 'GET', `/permissions/${permission.id}`);
    expect(fetched).toEqual({ status: 200, body: { data: permission } });
  });

  it('updates with one object and answers the updated permission', async () => {
    const permission = await createPermission({
      name: 'docs.read',
      roleIds: [tenantA.adminRoleId],
    });
    const answer = await call(tokenA, 'PUT', '/permissions/update', {
      id: permission.id,
      name: 'docs_read-all',
      description: 'Reads every document.',
      roleIds: [tenantA.memberRoleId],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      id: permission.id,
      name: 'docs_read-all',
      description: 'Reads every document.',
      roleIds: [tenantA.memberRoleId],
      roles: ['Member'],
    });
    const arrayPayload = await call(tokenA, 'PUT', '/permissions/update', [answer.body.data]);
    expect(arrayPayload.status).toBe(400);
  });

  it('deletes a tenant-defined permission and writes audit entries', async () => {
    const permission = await createPermission({ name: 'temp:x', roleIds: [tenantA.adminRoleId] });
    const deleted = await call(tokenA, 'POST', `/permissions/delete/${permission.id}`);
    expect(deleted).toEqual({ status: 200, body: { data: { id: permission.id } } });
    expect((await call(tokenA, 'GET', `/permissions/${permission.id}`)).status).toBe(404);
    const entries = await server.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'permissions'), eq(auditLog.entityId, permission.id)));
    expect(entries.map((entry) => entry.action).sort()).toEqual(['create', 'delete']);
    expect(entries[0]!.actorId).toBe(tenantA.adminId);
  });

  it('pages with search, role filter and sort, only within the tenant', async () => {
    const tag = uniqueName('pg');
    const { roleId } = await userWithRole(tenantA, []);
    await createPermission({ name: `${tag}:b`, roleIds: [roleId] });
    await createPermission({ name: `${tag}:A`, roleIds: [roleId, tenantA.adminRoleId] });
    await createPermission({ name: `${tag}:c`, roleIds: [tenantA.adminRoleId] });
    const page = await call(tokenA, 'POST', '/permissions/page', {
      pageIndex: 1,
      pageSize: 2,
      filter: { search: tag.toUpperCase() },
      listSort: { field: 'name', direction: 0 },
    });
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ pageIndex: 1, pageSize: 2, totalCount: 3 });
    expect(page.body.data.data.map((row: Permission) => row.name)).toEqual([
      `${tag}:A`,
      `${tag}:b`,
    ]);
    const byRole = await call(tokenA, 'POST', '/permissions/page', { filter: { roleId } });
    expect(byRole.body.data.data.map((row: Permission) => row.name)).toEqual([
      `${tag}:A`,
      `${tag}:b`,
    ]);
    const other = await call(tokenB, 'POST', '/permissions/page', { filter: { search: tag } });
    expect(other.body.data.totalCount).toBe(0);
  });

  it('lists the system permissions, marked as such', async () => {
    const page = await call(tokenB, 'POST', '/permissions/page', { pageSize: 100 });
    const system = page.body.data.data.filter((row: Permission) => row.system);
    expect(system.map((row: Permission) => row.name).sort()).toEqual(
      [...SYSTEM_PERMISSIONS].sort(),
    );
    expect(system.every((row: Permission) => row.roles.includes('Admin'))).toBe(true);
  });
});

describe('permissions validation', () => {
  const invalid = async (data: Record<string, unknown>, field: string, message: RegExp) => {
    const answer = await call(tokenA, 'POST', '/permissions/create', data);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[field]).toMatch(message);
  };
  const roleIds = () => [tenantA.adminRoleId];

  it('needs a permission name of 1 to 100 allowed characters', async () => {
    await invalid({ roleIds: roleIds() }, 'name', /Enter a name/);
    await invalid({ name: '  ', roleIds: roleIds() }, 'name', /Enter a name/);
    await invalid({ name: 'a'.repeat(101), roleIds: roleIds() }, 'name', /at most 100/);
    await invalid({ name: 'reports export', roleIds: roleIds() }, 'name', /letters, digits/);
    await invalid({ name: 'reports/export', roleIds: roleIds() }, 'name', /letters, digits/);
  });

  it('bounds the description', async () => {
    const data = { name: 'long:desc', description: 'x'.repeat(501), roleIds: roleIds() };
    await invalid(data, 'description', /at most 500/);
  });

  it('needs at least one role, all of this tenant', async () => {
    await invalid({ name: 'no:roles' }, 'roleIds', /at least one role/);
    await invalid({ name: 'no:roles', roleIds: [] }, 'roleIds', /at least one role/);
    const foreign = { name: 'foreign:role', roleIds: [tenantB.adminRoleId] };
    await invalid(foreign, 'roleIds', /Unknown role/);
    const mixed = { name: 'mixed:role', roleIds: [tenantA.adminRoleId, tenantB.memberRoleId] };
    await invalid(mixed, 'roleIds', /Unknown role/);
    await invalid({ name: 'bad:id', roleIds: ['nope'] }, 'roleIds.0', /id/);
    const page = await call(tokenA, 'POST', '/permissions/page', { filter: { search: ':role' } });
    expect(page.body.data.totalCount).toBe(0);
  });

  it('answers a duplicate name, also in another case, with 409 on the name', async () => {
    await createPermission({ name: 'billing:view', roleIds: roleIds() });
    for (const name of ['billing:view', 'BILLING:View', 'USERS:READ']) {
      const answer = await call(tokenA, 'POST', '/permissions/create', {
        name,
        roleIds: roleIds(),
      });
      expect(answer.status).toBe(409);
      expect(answer.body.errors.name).toMatch(/already exists/);
    }
    const other = await createPermission({ name: 'billing:edit', roleIds: roleIds() });
    const rename = await call(tokenA, 'PUT', '/permissions/update', {
      id: other.id,
      name: 'Billing:View',
      roleIds: roleIds(),
    });
    expect(rename.status).toBe(409);
    expect(rename.body.errors.name).toMatch(/already exists/);
    await createPermission({ name: 'billing:view', roleIds: [tenantB.adminRoleId] }, tokenB);
  });
});

describe('system permissions', () => {
  it('can be given to another role but not renamed or taken from Admin', async () => {
    const { roleId } = await userWithRole(tenantA, []);
    const before = await systemPermission('projects:write');
    const assign = await call(tokenA, 'PUT', '/permissions/update', {
      id: before.id,
      name: before.name,
      roleIds: [...before.roleIds, roleId],
    });
    expect(assign.status).toBe(200);
    expect(assign.body.data.roleIds).toContain(roleId);
    const role = await call<Role>(tokenA, 'GET', `/roles/${roleId}`);
    expect(role.body.data.permissions).toEqual(['projects:write']);

    const rename = await call(tokenA, 'PUT', '/permissions/update', {
      id: before.id,
      name: 'projects:edit',
      roleIds: [tenantA.adminRoleId],
    });
    expect(rename.status).toBe(400);
    expect(rename.body.errors.name).toMatch(/cannot be renamed/);
    const withoutAdmin = await call(tokenA, 'PUT', '/permissions/update', {
      id: before.id,
      name: before.name,
      roleIds: [roleId],
    });
    expect(withoutAdmin.status).toBe(400);
    expect(withoutAdmin.body.errors.roleIds).toMatch(/Admin role always holds/);
    expect((await systemPermission('projects:write')).name).toBe('projects:write');
  });

  it('cannot be deleted', async () => {
    const permission = await systemPermission('users:read');
    const answer = await call(tokenA, 'POST', `/permissions/delete/${permission.id}`);
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toMatch(/system permission users:read cannot be deleted/);
    expect(await systemPermission('users:read')).toEqual(permission);
  });
});

describe('tenant-defined permissions in tokens', () => {
  it('appear in the permissions claim of users whose role holds them', async () => {
    const { roleId, email } = await userWithRole(tenantA, []);
    await createPermission({ name: 'reports:run', roleIds: [roleId] });
    const { access_token: token } = await signIn(server, tenantA.name, email, TEST_PASSWORD);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims.permissions).toEqual(['reports:run']);
  });
});

describe('permissions access', () => {
  it('answers ids of another tenant with 404 and changes nothing', async () => {
    const permission = await createPermission({ name: 'secret:x', roleIds: [tenantA.adminRoleId] });
    expect((await call(tokenB, 'GET', `/permissions/${permission.id}`)).status).toBe(404);
    const update = await call(tokenB, 'PUT', '/permissions/update', {
      id: permission.id,
      name: 'stolen:x',
      roleIds: [tenantB.adminRoleId],
    });
    expect(update.status).toBe(404);
    expect((await call(tokenB, 'POST', `/permissions/delete/${permission.id}`)).status).toBe(404);
    const after = await call(tokenA, 'GET', `/permissions/${permission.id}`);
    expect(after.body.data).toEqual(permission);
  });

  it('needs permissions:write to create, update and delete', async () => {
    const readId = tenantA.permissionIds.get('permissions:read')!;
    const { email } = await userWithRole(tenantA, [readId]);
    const reader = (await signIn(server, tenantA.name, email, TEST_PASSWORD)).access_token;
    const permission = await createPermission({
      name: 'guarded:x',
      roleIds: [tenantA.adminRoleId],
    });
    expect((await call(reader, 'POST', '/permissions/page', {})).status).toBe(200);
    const create = { name: 'nope:x', roleIds: [tenantA.adminRoleId] };
    expect((await call(reader, 'POST', '/permissions/create', create)).status).toBe(403);
    const update = { id: permission.id, name: 'nope:y', roleIds: [tenantA.adminRoleId] };
    expect((await call(reader, 'PUT', '/permissions/update', update)).status).toBe(403);
    const remove = await call(reader, 'POST', `/permissions/delete/${permission.id}`);
    expect(remove.status).toBe(403);
    expect((await call(tokenA, 'GET', `/permissions/${permission.id}`)).body.data).toEqual(
      permission,
    );
  });
});
