import type { Page as ListPage } from '@tc/contract/paging';
import type { User } from '@tc/contract/users';
import { expect, test } from '../fixtures';
import { navigation, signInTo } from '../pages';
import { ApiError } from '../tenant-fixture';

/** The fixture every admin-screen spec starts from: a fresh realm per test. */
test.describe('fresh tenant fixture', () => {
  test("the fresh tenant's admin signs in on the tenant's own host and lands on /home", async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    expect(tenant.domain).toMatch(/^t-[0-9a-f]{8}\.localhost$/);
    await signInTo(page, tenant);
    expect(new URL(page.url()).host).toBe(new URL(tenant.url).host);
    // The tenant card names this tenant: the console identified it by its host.
    await expect(navigation(page).getByRole('link', { name: tenant.domain })).toHaveAttribute(
      'href',
      tenant.url,
    );
  });

  test('readOnlyUser() gets a token that reads but does not write', async ({ freshTenant }) => {
    const tenant = await freshTenant();
    const reader = await tenant.readOnlyUser();
    expect(await reader.token()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect([...reader.role.permissions].sort()).toEqual([
      'audit:read',
      'clients:read',
      'permissions:read',
      'projects:read',
      'roles:read',
      'tenant:read',
      'users:read',
      'webhooks:read',
    ]);

    const users = await reader.api<ListPage<User>>('POST', '/users/page', {});
    expect(users.data.map((u) => u.email)).toContain(reader.email);
    const write = reader.api('POST', '/roles/create', { name: 'Not allowed' });
    await expect(write).rejects.toBeInstanceOf(ApiError);
    await expect(write).rejects.toMatchObject({ status: 403 });
  });

  test('the create helpers and seedUsers fill the tenant through the API', async ({
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    const role = await tenant.createRole({ name: 'Editors', permissions: ['projects:write'] });
    expect(role.permissions).toEqual(['projects:write']);
    const user = await tenant.createUser({ firstName: 'Ada', role: 'Editors' });
    expect(user).toMatchObject({ firstName: 'Ada', role: 'Editors', invited: true });
    const permission = await tenant.createPermission({
      name: 'reports:export',
      roles: ['Editors'],
    });
    expect(permission.roles).toEqual(['Editors']);
    const project = await tenant.createProject({ name: 'Bridge' });
    expect(project.name).toBe('Bridge');

    const seeded = await tenant.seedUsers(12);
    expect(seeded.map((u) => u.email)).toContain(`seed.012@${tenant.domain}`);
    const users = await tenant.api<ListPage<User>>('POST', '/users/page', {});
    // The administrator, Ada and the twelve seeded users.
    expect(users.totalCount).toBe(14);
  });

  test('dispose() deletes the tenant: its token endpoint then answers 404', async ({
    env,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    const tokenEndpoint = `${env.adminUrl}/realms/${tenant.name}/protocol/openid-connect/token`;
    const signIn = () =>
      fetch(tokenEndpoint, {
        method: 'POST',
        body: new URLSearchParams({
          client_id: 'react-client',
          grant_type: 'password',
          username: tenant.admin.email,
          password: tenant.admin.password,
        }),
      });
    expect((await signIn()).status).toBe(200);

    await tenant.dispose();
    expect((await signIn()).status).toBe(404);
    const identify = await fetch(`${env.adminUrl}/api/v1.0/tenants/identify`, {
      headers: { 'tenant-id': tenant.id },
    });
    expect(identify.status).toBe(404);
    // A second dispose (the fixture's, after the test) is harmless.
    await tenant.dispose();
  });
});

test.describe.serial('fresh tenant fixture teardown', () => {
  let leftBehind: string | undefined;

  test('a test leaves its tenant to the fixture', async ({ freshTenant }) => {
    leftBehind = (await freshTenant()).id;
  });

  test('the fixture deleted it after that test', async ({ env }) => {
    const identify = await fetch(`${env.adminUrl}/api/v1.0/tenants/identify`, {
      headers: { 'tenant-id': leftBehind! },
    });
    expect(identify.status).toBe(404);
  });
});
