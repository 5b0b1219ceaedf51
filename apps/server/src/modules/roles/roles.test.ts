import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@tc/contract/roles';
import { auditLog } from '../../db/schema/audit';
import {
  api,
  callApi,
  createSignedInTenant,
  createTenant,
  signIn,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { insertUser } from '../users';
import { insertRole } from './queries';

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

const call = <Row = Role>(token: string, method: string, path: string, body?: unknown) =>
  callApi<Row>(server, token, method, path, body);

const createRole = async (data: Record<string, unknown>, token = tokenA) => {
  const answer = await call(token, 'POST', '/roles/create', data);
  expect(answer.status).toBe(201);
  return answer.body.data as Role;
};

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    permissions: string[];
    realm_access: { roles: string[] };
  };

/** A user of `tenant` holding a fresh role made directly with the given permissions. */
async function userWithRole(tenant: TenantFixture, permissionNames: string[]) {
  const db = server.database.db;
  const email = `${uniqueName('u')}@${tenant.domain}`;
  const roleId = await insertRole(db, {
    tenantId: tenant.tenantId,
    name: uniqueName('role'),
    permissionIds: permissionNames.map((name) => tenant.permissionIds.get(name)!),
  });
  await insertUser(db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Rita',
    lastName: 'Role',
    roleId,
    password: TEST_PASSWORD,
  });
  return { roleId, email };
}

describe('roles CRUD', () => {
  it('creates a role with permissions and answers the row shape', async () => {
    const usersRead = tenantA.permissionIds.get('users:read')!;
    const role = await createRole({
      id: null,
      name: '  Auditor  ',
      description: 'Reads things.',
      permissionIds: [usersRead],
    });
    expect(role).toEqual({
      id: expect.any(String),
      name: 'Auditor',
      description: 'Reads things.',
      status: 'active',
      system: false,
      permissionIds: [usersRead],
      permissions: ['users:read'],
      userCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const fetched = await call(tokenA, 'GET', `/roles/${role.id}`);
    expect(fetched).toEqual({ status: 200, body: { data: role } });
  });

  it('writes an audit entry for create, update and delete', async () => {
    const role = await createRole({ name: uniqueName('Audited') });
    await call(tokenA, 'PUT', '/roles/update', { id: role.id, name: `${role.name}-x` });
    await call(tokenA, 'POST', `/roles/delete/${role.id}`);
    const entries = await server.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'roles'), eq(auditLog.entityId, role.id)));
    expect(entries.map((entry) => entry.action).sort()).toEqual(['create', 'delete', 'update']);
    expect(entries.every((entry) => entry.actorId === tenantA.adminId)).toBe(true);
  });

  it('updates name, description, status and permissions, and answers the role', async () => {
    const role = await createRole({ name: 'Editor', description: 'Edits.' });
    const projectsRead = tenantA.permissionIds.get('projects:read')!;
    const updated = await call(tokenA, 'PUT', '/roles/update', {
      id: role.id,
      name: 'Senior editor',
      description: null,
      status: 'inactive',
      permissionIds: [projectsRead],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id: role.id,
      name: 'Senior editor',
      description: null,
      status: 'inactive',
      permissions: ['projects:read'],
    });
    // Leaving status and permissions out keeps them.
    const renamed = await call(tokenA, 'PUT', '/roles/update', { id: role.id, name: 'Chief' });
    expect(renamed.body.data).toMatchObject({ status: 'inactive', permissionIds: [projectsRead] });
  });

  it('deletes a role nobody holds; it is gone afterwards', async () => {
    const role = await createRole({ name: 'Temporary' });
    const deleted = await call(tokenA, 'POST', `/roles/delete/${role.id}`);
    expect(deleted).toEqual({ status: 200, body: { data: { id: role.id } } });
    expect((await call(tokenA, 'GET', `/roles/${role.id}`)).status).toBe(404);
  });

  it('pages with search, status filter and sort, only within the tenant', async () => {
    const tag = uniqueName('pg');
    await createRole({ name: `${tag}-b`, status: 'inactive' });
    await createRole({ name: `${tag}-A` });
    await createRole({ name: `${tag}-c` });
    const page = await call(tokenA, 'POST', '/roles/page', {
      pageIndex: 1,
      pageSize: 2,
      filter: { search: tag.toUpperCase() },
      listSort: { field: 'name', direction: 1 },
    });
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ pageIndex: 1, pageSize: 2, totalCount: 3 });
    expect(page.body.data.data.map((row: Role) => row.name)).toEqual([`${tag}-c`, `${tag}-b`]);
    const inactive = await call(tokenA, 'POST', '/roles/page', {
      filter: { search: tag, status: 'inactive' },
    });
    expect(inactive.body.data.data.map((row: Role) => row.name)).toEqual([`${tag}-b`]);
    const other = await call(tokenB, 'POST', '/roles/page', { filter: { search: tag } });
    expect(other.body.data.totalCount).toBe(0);
    const fresh = await createTenant(server.database.db);
    const freshToken = (await signIn(server, fresh.name, fresh.adminEmail, TEST_PASSWORD))
      .access_token;
    const defaults = await call(freshToken, 'POST', '/roles/page', {});
    expect(defaults.body.data.data.map((row: Role) => row.name)).toEqual(['Admin', 'Member']);
    expect(defaults.body.data.data[0]).toMatchObject({ system: true, userCount: 1 });
  });

  it('refuses an unknown sort field and filter', async () => {
    const answer = await call(tokenA, 'POST', '/roles/page', {
      filter: { colour: 'red' },
      listSort: { field: 'description', direction: 0 },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(
      expect.arrayContaining(['filter', 'listSort.field']),
    );
  });
});

describe('roles validation', () => {
  const invalid = async (data: Record<string, unknown>, field: string, message: RegExp) => {
    const answer = await call(tokenA, 'POST', '/roles/create', data);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[field]).toMatch(message);
  };

  it('needs a name of 1 to 100 characters', async () => {
    await invalid({}, 'name', /Enter a name/);
    await invalid({ name: '   ' }, 'name', /Enter a name/);
    await invalid({ name: 'x'.repeat(101) }, 'name', /at most 100/);
  });

  it('bounds the description and knows only two statuses', async () => {
    await invalid({ name: 'Long', description: 'x'.repeat(501) }, 'description', /at most 500/);
    await invalid({ name: 'Paused', status: 'paused' }, 'status', /.+/);
  });

  it('takes only permission ids of the same tenant', async () => {
    const foreign = tenantB.permissionIds.get('users:read')!;
    await invalid({ name: 'Foreign', permissionIds: [foreign] }, 'permissionIds', /Unknown/);
    await invalid({ name: 'Bad id', permissionIds: ['nope'] }, 'permissionIds.0', /id/);
    const role = await createRole({ name: 'Updatable' });
    const update = await call(tokenA, 'PUT', '/roles/update', {
      id: role.id,
      name: 'Updatable',
      permissionIds: [foreign],
    });
    expect(update.status).toBe(400);
    expect(update.body.errors.permissionIds).toMatch(/Unknown/);
    expect((await call(tokenA, 'GET', `/roles/${role.id}`)).body.data.permissionIds).toEqual([]);
  });

  it('answers a duplicate name, also in another case, with 409 on the name', async () => {
    await createRole({ name: 'Reviewer' });
    for (const name of ['Reviewer', 'REVIEWER', 'admin']) {
      const answer = await call(tokenA, 'POST', '/roles/create', { name });
      expect(answer.status).toBe(409);
      expect(answer.body.errors.name).toMatch(/already exists/);
    }
    const other = await createRole({ name: 'Other reviewer' });
    const rename = await call(tokenA, 'PUT', '/roles/update', { id: other.id, name: 'reviewer' });
    expect(rename.status).toBe(409);
    expect(rename.body.errors.name).toMatch(/already exists/);
    // The same name is free in another tenant.
    await createRole({ name: 'Reviewer' }, tokenB);
  });
});

describe('built-in roles', () => {
  const update = (data: Record<string, unknown>) =>
    call(tokenA, 'PUT', '/roles/update', { id: tenantA.adminRoleId, name: 'Admin', ...data });

  it('refuses renaming, deactivating or changing the permissions of Admin', async () => {
    const rename = await update({ name: 'Boss' });
    expect(rename.status).toBe(400);
    expect(rename.body.errors.name).toMatch(/cannot be renamed/);
    const deactivate = await update({ status: 'inactive' });
    expect(deactivate.status).toBe(400);
    expect(deactivate.body.errors.status).toMatch(/cannot be deactivated/);
    const reduce = await update({ permissionIds: [tenantA.permissionIds.get('users:read')!] });
    expect(reduce.status).toBe(400);
    expect(reduce.body.errors.permissionIds).toMatch(/cannot be changed/);
    const admin = (await call(tokenA, 'GET', `/roles/${tenantA.adminRoleId}`)).body.data as Role;
    expect(admin).toMatchObject({ name: 'Admin', status: 'active', system: true });
    expect(admin.permissionIds).toHaveLength(tenantA.permissionIds.size);
  });

  it('lets Admin’s description change when its permissions stay the same', async () => {
    const admin = (await call(tokenA, 'GET', `/roles/${tenantA.adminRoleId}`)).body.data as Role;
    const answer = await update({
      description: 'Runs everything.',
      permissionIds: [...admin.permissionIds].reverse(),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.description).toBe('Runs everything.');
  });

  it('refuses deleting Admin and Member', async () => {
    for (const id of [tenantA.adminRoleId, tenantA.memberRoleId]) {
      const answer = await call(tokenA, 'POST', `/roles/delete/${id}`);
      expect(answer.status).toBe(409);
      expect(answer.body.detail).toMatch(/built-in role .* cannot be deleted/);
    }
  });
});

describe('roles held by users', () => {
  it('refuses deleting a role held by users, naming how many', async () => {
    const role = await createRole({ name: 'Crew' });
    for (const n of [1, 2]) {
      await insertUser(server.database.db, {
        tenantId: tenantA.tenantId,
        email: `crew${n}-${role.id}@${tenantA.domain}`,
        firstName: 'Crew',
        lastName: `Member ${n}`,
        roleId: role.id,
      });
    }
    const answer = await call(tokenA, 'POST', `/roles/delete/${role.id}`);
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toBe('This role is held by 2 users. Give them another role first.');
    expect((await call(tokenA, 'GET', `/roles/${role.id}`)).body.data.userCount).toBe(2);
  });

  it('an inactive role grants nothing: no permissions in new tokens, 403 on the API', async () => {
    const { roleId, email } = await userWithRole(tenantA, ['roles:read', 'users:read']);
    const before = (await signIn(server, tenantA.name, email, TEST_PASSWORD)).access_token;
    expect(claimsOf(before).permissions).toEqual(['roles:read', 'users:read']);
    expect((await call(before, 'POST', '/roles/page', {})).status).toBe(200);

    const role = (await call(tokenA, 'GET', `/roles/${roleId}`)).body.data as Role;
    const deactivated = await call(tokenA, 'PUT', '/roles/update', { ...role, status: 'inactive' });
    expect(deactivated.status).toBe(200);

    const after = (await signIn(server, tenantA.name, email, TEST_PASSWORD)).access_token;
    expect(claimsOf(after).permissions).toEqual([]);
    expect(claimsOf(after).realm_access.roles).toEqual([]);
    expect((await call(after, 'POST', '/roles/page', {})).status).toBe(403);
    expect((await call(before, 'POST', '/roles/page', {})).status).toBe(403);
  });
});

describe('roles access', () => {
  it('answers ids of another tenant with 404 and changes nothing', async () => {
    const role = await createRole({ name: 'Private' });
    expect((await call(tokenB, 'GET', `/roles/${role.id}`)).status).toBe(404);
    const update = await call(tokenB, 'PUT', '/roles/update', { id: role.id, name: 'Stolen' });
    expect(update.status).toBe(404);
    expect((await call(tokenB, 'POST', `/roles/delete/${role.id}`)).status).toBe(404);
    const adminOfA = await call(tokenB, 'POST', `/roles/delete/${tenantA.adminRoleId}`);
    expect(adminOfA.status).toBe(404);
    expect((await call(tokenA, 'GET', `/roles/${role.id}`)).body.data).toEqual(role);
  });

  it('needs roles:write to create, update and delete, roles:read to list', async () => {
    const { email } = await userWithRole(tenantA, ['roles:read']);
    const reader = (await signIn(server, tenantA.name, email, TEST_PASSWORD)).access_token;
    const role = await createRole({ name: 'Guarded' });
    expect((await call(reader, 'POST', '/roles/page', {})).status).toBe(200);
    expect((await call(reader, 'GET', `/roles/${role.id}`)).status).toBe(200);
    expect((await call(reader, 'POST', '/roles/create', { name: 'Nope' })).status).toBe(403);
    const update = await call(reader, 'PUT', '/roles/update', { id: role.id, name: 'Nope' });
    expect(update.status).toBe(403);
    expect((await call(reader, 'POST', `/roles/delete/${role.id}`)).status).toBe(403);
    expect((await call(tokenA, 'GET', `/roles/${role.id}`)).body.data).toEqual(role);

    const { email: nobody } = await userWithRole(tenantA, []);
    const none = (await signIn(server, tenantA.name, nobody, TEST_PASSWORD)).access_token;
    expect((await call(none, 'POST', '/roles/page', {})).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    const response = await api(server, '/roles/page', undefined, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
  });
});

describe('roles OpenAPI', () => {
  it('documents the routes with the contract’s named schemas', async () => {
    const response = await fetch(`${server.url}/api/docs/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1.0/roles/page', '/api/v1.0/permissions/update']),
    );
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Role', 'RoleCreate', 'Permission', 'PermissionUpdate']),
    );
  });
});
