import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../fixtures';
import { startTestServer, type TestServer } from '../harness';
import { seedTenant, type SeededTenant } from './entities';
import { grantFixtures, newUser, PERMISSION_SETS, suffix, type Limited } from './grant-fixtures';

let server: TestServer;
let tenant: SeededTenant;
let limitedUser: (names: string[]) => Promise<Limited>;
let read: (entity: string, id: string) => Promise<Record<string, unknown>>;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await seedTenant(server);
  ({ limitedUser, read } = grantFixtures(server, tenant));
});
afterAll(() => server?.close());

// The matrix: every write route that can widen what someone may do × permission sets up to
// every system permission (but not the Admin role; PERMISSION_SETS) × a write that grants
// something the set does not hold (a custom permission only the Admin role carries) → 403,
// nothing changed. escalation-applications.test.ts adds the application dimension.

/** A confidential client whose own tokens carry this role's permissions. */
const serviceClient = (roleId: string) => ({
  clientId: `svc-${suffix()}`,
  name: 'Service',
  type: 'confidential',
  grantTypes: ['client_credentials'],
  serviceRoleIds: [roleId],
});

type Escalation = (
  caller: Limited,
  secretId: string,
) => Promise<{ method: string; path: string; body: unknown; entity: string; id: string }>;

const ESCALATIONS: Record<string, Escalation> = {
  'give itself the Admin role': async (caller) => ({
    method: 'PUT',
    path: '/users/update',
    body: { ...(await read('users', caller.userId)), roleId: tenant.adminRoleId },
    entity: 'users',
    id: caller.userId,
  }),
  'create a user with the Admin role': async () => ({
    method: 'POST',
    path: '/users/create',
    body: newUser(tenant.adminRoleId),
    entity: 'roles',
    id: tenant.adminRoleId,
  }),
  'move another user to the Admin role': async () => ({
    method: 'PUT',
    path: '/users/update',
    body: { ...(await read('users', tenant.ids.users)), roleId: tenant.adminRoleId },
    entity: 'users',
    id: tenant.ids.users,
  }),
  'put an unheld permission on its own role': async (caller, secretId) => {
    const own = await read('roles', caller.roleId);
    const permissionIds = [...(own.permissionIds as string[]), secretId];
    return {
      method: 'PUT',
      path: '/roles/update',
      body: { ...own, permissionIds },
      entity: 'roles',
      id: caller.roleId,
    };
  },
  'put an unheld permission on Member': async (_caller, secretId) => {
    const member = await read('roles', tenant.memberRoleId);
    const permissionIds = [...(member.permissionIds as string[]), secretId];
    return {
      method: 'PUT',
      path: '/roles/update',
      body: { ...member, permissionIds },
      entity: 'roles',
      id: tenant.memberRoleId,
    };
  },
  'create a role with an unheld permission': async (_caller, secretId) => ({
    method: 'POST',
    path: '/roles/create',
    body: { name: `Wide ${suffix()}`, permissionIds: [secretId] },
    entity: 'permissions',
    id: secretId,
  }),
  'edit the Admin role': async () => ({
    method: 'PUT',
    path: '/roles/update',
    body: { ...(await read('roles', tenant.adminRoleId)), description: 'Mine' },
    entity: 'roles',
    id: tenant.adminRoleId,
  }),
  'attach an unheld permission to its own role': async (caller, secretId) => {
    const secret = await read('permissions', secretId);
    const roleIds = [...(secret.roleIds as string[]), caller.roleId];
    return {
      method: 'PUT',
      path: '/permissions/update',
      body: { ...secret, roleIds },
      entity: 'permissions',
      id: secretId,
    };
  },
  'create a client whose secret carries the Admin role': async () => ({
    method: 'POST',
    path: '/clients/create',
    body: serviceClient(tenant.adminRoleId),
    entity: 'roles',
    id: tenant.adminRoleId,
  }),
  'take a new secret of a client serving the Admin role': async () => {
    const { body } = await callApi<{ id: string }>(
      server,
      tenant.token,
      'POST',
      '/clients/create',
      serviceClient(tenant.adminRoleId),
    );
    const id = body.data.id;
    return {
      method: 'POST',
      path: `/clients/${id}/rotate-secret`,
      body: undefined,
      entity: 'clients',
      id,
    };
  },
  'create a new permission on its own role': async (caller) => ({
    method: 'POST',
    path: '/permissions/create',
    body: { name: `new:${suffix()}`, roleIds: [caller.roleId] },
    entity: 'roles',
    id: caller.roleId,
  }),
};

describe.each(Object.entries(PERMISSION_SETS))('escalation matrix: %s', (_name, names) => {
  let caller: Limited;
  let secretId: string;
  beforeAll(async () => {
    caller = await limitedUser(names);
    const { body } = await callApi<{ id: string }>(
      server,
      tenant.token,
      'POST',
      '/permissions/create',
      { name: `secret:${suffix()}`, roleIds: [tenant.adminRoleId] },
    );
    secretId = body.data.id;
  });

  it.each(Object.keys(ESCALATIONS))('cannot %s', async (escalation) => {
    const attempt = await ESCALATIONS[escalation]!(caller, secretId);
    const before = await read(attempt.entity, attempt.id);
    const { status } = await callApi(
      server,
      caller.token,
      attempt.method,
      attempt.path,
      attempt.body,
    );
    expect(status).toBe(403);
    expect(await read(attempt.entity, attempt.id)).toEqual(before);
  });
});
