import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, callApi } from '../fixtures';
import { startTestServer, type TestServer } from '../harness';
import { createRow, seedTenant, type SeededTenant } from './entities';
import { grantFixtures, newUser, suffix, type Limited } from './grant-fixtures';

// Nobody grants what they do not hold: every write that can widen what someone may do,
// tried by users who hold the write permission but not what the write would hand out.

let server: TestServer;
let tenant: SeededTenant;
let limitedUser: (names: string[]) => Promise<Limited>;
let roleWith: (names: string[]) => Promise<string>;
let read: (entity: string, id: string) => Promise<Record<string, unknown>>;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await seedTenant(server);
  ({ limitedUser, roleWith, read } = grantFixtures(server, tenant));
});
afterAll(() => server?.close());

async function expectRefused(
  caller: Limited,
  method: string,
  path: string,
  body: unknown,
  unchanged: { entity: string; id: string },
) {
  const before = await read(unchanged.entity, unchanged.id);
  const { status, body: answer } = await callApi(server, caller.token, method, path, body);
  expect(status, `${method} ${path}: ${JSON.stringify(answer)}`).toBe(403);
  expect(answer.detail).toMatch(/hold|administrator/i);
  expect(await read(unchanged.entity, unchanged.id)).toEqual(before);
}

describe('users:write cannot hand out roles beyond its own', () => {
  let caller: Limited;
  beforeAll(async () => {
    caller = await limitedUser(['users:read', 'users:write']);
  });

  it('cannot give itself the Admin role, and its next token carries nothing more', async () => {
    const self = (await read('users', caller.userId)) as Record<string, unknown>;
    await expectRefused(
      caller,
      'PUT',
      '/users/update',
      { ...self, roleId: tenant.adminRoleId },
      { entity: 'users', id: caller.userId },
    );
    const me = (await read('users', caller.userId)) as { roleId: string };
    expect(me.roleId).toBe(caller.roleId);
  });

  it('cannot change its own role even to a lesser one', async () => {
    const self = (await read('users', caller.userId)) as Record<string, unknown>;
    const lesser = await roleWith(['users:read']);
    await expectRefused(
      caller,
      'PUT',
      '/users/update',
      { ...self, roleId: lesser },
      { entity: 'users', id: caller.userId },
    );
  });

  it('cannot create a user with the Admin role or with a role it does not fully hold', async () => {
    for (const roleId of [tenant.adminRoleId, tenant.memberRoleId]) {
      const { status } = await callApi(
        server,
        caller.token,
        'POST',
        '/users/create',
        newUser(roleId),
      );
      expect(status).toBe(403);
    }
    const total = await callApi(server, tenant.token, 'POST', '/users/page', {
      filter: { search: 'eve.' },
    });
    expect(total.body.data.totalCount).toBe(0);
  });

  it('can create a user with a role that grants only what it holds', async () => {
    const within = await roleWith(['users:read']);
    const { status } = await callApi(
      server,
      caller.token,
      'POST',
      '/users/create',
      newUser(within),
    );
    expect(status).toBe(201);
  });

  it('cannot move another user to the Admin role', async () => {
    const other = (await read('users', tenant.ids.users)) as Record<string, unknown>;
    await expectRefused(
      caller,
      'PUT',
      '/users/update',
      { ...other, roleId: tenant.adminRoleId },
      { entity: 'users', id: tenant.ids.users },
    );
  });

  it('cannot edit, delete or re-invite an account that may do more than it', async () => {
    const admin = (await read('users', tenant.adminId)) as Record<string, unknown>;
    const takeover = { ...admin, email: `eve.${suffix()}@example.test` };
    await expectRefused(caller, 'PUT', '/users/update', takeover, {
      entity: 'users',
      id: tenant.adminId,
    });
    await expectRefused(caller, 'POST', `/users/delete/${tenant.adminId}`, undefined, {
      entity: 'users',
      id: tenant.adminId,
    });
    const invited = await createRow(server, tenant, 'users'); // a Member, invited
    await expectRefused(caller, 'POST', `/users/${invited.id}/resend-invitation`, undefined, {
      entity: 'users',
      id: invited.id,
    });
  });
});

describe('roles:write cannot put on a role what it does not hold', () => {
  let caller: Limited;
  beforeAll(async () => {
    caller = await limitedUser(['roles:read', 'roles:write']);
  });

  it('cannot add permissions to its own role', async () => {
    const own = (await read('roles', caller.roleId)) as Record<string, unknown>;
    const every = [...tenant.permissionIds.values()];
    await expectRefused(
      caller,
      'PUT',
      '/roles/update',
      { ...own, permissionIds: every },
      { entity: 'roles', id: caller.roleId },
    );
  });

  it('cannot add users:write to the Member role that sign-up hands out', async () => {
    const member = (await read('roles', tenant.memberRoleId)) as { permissionIds: string[] };
    const widened = [...member.permissionIds, tenant.permissionIds.get('users:write')!];
    await expectRefused(
      caller,
      'PUT',
      '/roles/update',
      { ...member, permissionIds: widened },
      { entity: 'roles', id: tenant.memberRoleId },
    );
  });

  it('cannot create a role granting more than it holds', async () => {
    const { status } = await callApi(server, caller.token, 'POST', '/roles/create', {
      name: `Wide ${suffix()}`,
      permissionIds: [tenant.permissionIds.get('users:write')!],
    });
    expect(status).toBe(403);
  });

  it('cannot edit the Admin role at all', async () => {
    const admin = (await read('roles', tenant.adminRoleId)) as Record<string, unknown>;
    await expectRefused(
      caller,
      'PUT',
      '/roles/update',
      { ...admin, description: 'Mine now' },
      { entity: 'roles', id: tenant.adminRoleId },
    );
  });

  it('cannot reactivate or rename a role that grants more than it holds', async () => {
    const wide = await roleWith(['users:write']);
    const before = (await read('roles', wide)) as Record<string, unknown>;
    await expectRefused(
      caller,
      'PUT',
      '/roles/update',
      { ...before, name: `Renamed ${suffix()}` },
      { entity: 'roles', id: wide },
    );
  });

  it('can create and edit roles within what it holds', async () => {
    const { status, body } = await callApi<{ id: string }>(
      server,
      caller.token,
      'POST',
      '/roles/create',
      { name: `Narrow ${suffix()}`, permissionIds: [tenant.permissionIds.get('roles:read')!] },
    );
    expect(status).toBe(201);
    const role = (await read('roles', body.data.id)) as Record<string, unknown>;
    const edited = await callApi(server, caller.token, 'PUT', '/roles/update', {
      ...role,
      description: 'Narrow on purpose',
    });
    expect(edited.status).toBe(200);
  });
});

describe('permissions:write cannot attach what it does not hold', () => {
  let caller: Limited;
  beforeAll(async () => {
    caller = await limitedUser(['permissions:read', 'permissions:write']);
  });

  it('cannot attach users:write to its own role', async () => {
    const id = tenant.permissionIds.get('users:write')!;
    const permission = (await read('permissions', id)) as { roleIds: string[] };
    await expectRefused(
      caller,
      'PUT',
      '/permissions/update',
      { ...permission, roleIds: [...permission.roleIds, caller.roleId] },
      { entity: 'permissions', id },
    );
  });

  it('cannot create a new permission on a role (nobody holds it yet)', async () => {
    const { status } = await callApi(server, caller.token, 'POST', '/permissions/create', {
      name: `billing:${suffix()}`,
      roleIds: [caller.roleId],
    });
    expect(status).toBe(403);
  });

  it('cannot rename a permission its holders carry into another name', async () => {
    const before = (await read('permissions', tenant.ids.permissions)) as Record<string, unknown>;
    await expectRefused(
      caller,
      'PUT',
      '/permissions/update',
      { ...before, name: `renamed:${suffix()}` },
      { entity: 'permissions', id: tenant.ids.permissions },
    );
  });

  it('can give a permission it holds to another role', async () => {
    const id = tenant.permissionIds.get('permissions:read')!;
    const permission = (await read('permissions', id)) as { roleIds: string[] };
    const { status } = await callApi(server, caller.token, 'PUT', '/permissions/update', {
      ...permission,
      roleIds: [...permission.roleIds, tenant.memberRoleId],
    });
    expect(status).toBe(200);
  });
});

describe('the Admin remains the full administrator', () => {
  it('gives the Admin role, edits it and creates permissions', async () => {
    const created = await callApi<{ id: string }>(
      server,
      tenant.token,
      'POST',
      '/users/create',
      newUser(tenant.adminRoleId),
    );
    expect(created.status).toBe(201);
    const permission = await api(server, '/permissions/create', tenant.token, {
      method: 'POST',
      body: JSON.stringify({ name: `audit:${suffix()}`, roleIds: [tenant.memberRoleId] }),
    });
    expect(permission.status).toBe(201);
  });
});
