import { randomBytes } from 'node:crypto';
import type { Page as ListPage } from '@tc/contract/paging';
import type { Permission } from '@tc/contract/permissions-api';
import type { Project, ProjectCreate } from '@tc/contract/projects';
import type { Role } from '@tc/contract/roles';
import type { Tenant } from '@tc/contract/tenants';
import type { User } from '@tc/contract/users';
import { ApiError, apiAs, callApi, type Api, type Credentials, type Session } from './api-client';
import type { E2eEnv } from './env';
import type { Mailbox } from './fixtures';

export { ApiError, type Api, type Credentials, type Method } from './api-client';

/**
 * A fresh tenant per test: the super administrator provisions it, its invited
 * administrator sets a known password through the invitation mail, and it is deleted after
 * the test, so no spec depends on rows another spec left behind.
 */

export interface FreshTenantOptions {
  /** Realm name; default `t-<random>`. The domain is `<name>.localhost`. */
  name?: string;
  allowSignup?: boolean;
  /**
   * The onboarding wizard opens by itself on a new tenant's first sign-in; by
   * default it is recorded as completed so specs land on /home. 'pending' leaves it to run.
   */
  onboarding?: 'completed' | 'pending';
}

export interface ReadOnlyUser extends Credentials, Session {
  user: User;
  role: Role;
}

export interface FreshTenant {
  id: string;
  name: string;
  domain: string;
  /** The tenant's console, e.g. http://t-1a2b3c4d.localhost:PORT (Chromium: loopback). */
  url: string;
  admin: Credentials;
  /** A new access token of the tenant's administrator (password grant). */
  token(): Promise<string>;
  /** A JSON call under /api/v1.0 as the administrator; returns `data` of the envelope. */
  api: Api;
  /** Permissions by name, e.g. ['users:read']; default none. */
  createRole(input?: {
    name?: string;
    description?: string;
    permissions?: string[];
    status?: 'active' | 'inactive';
  }): Promise<Role>;
  /** Invites a user (no password yet: `invited` is true); role by name, default Member. */
  createUser(input?: {
    firstName?: string;
    lastName?: string;
    email?: string;
    role?: string;
    status?: 'active' | 'inactive';
  }): Promise<User>;
  /** Roles by name; default ['Admin'] (a permission needs at least one role). */
  createPermission(input?: {
    name?: string;
    description?: string;
    roles?: string[];
  }): Promise<Permission>;
  createProject(input?: Partial<ProjectCreate>): Promise<Project>;
  /** n invited users `seed.001@<domain>`, ... in the given role, created 10 at a time. */
  seedUsers(n: number, options?: { role?: string }): Promise<User[]>;
  /** A role with only the system *:read permissions, and a user in it with a password. */
  readOnlyUser(): Promise<ReadOnlyUser>;
  /** Deletes the tenant as the super administrator; a second call does nothing. */
  dispose(): Promise<void>;
}

// Neither holds its user's e-mail local part or name (admin@…, Reed Only): the default
// password policy refuses those.
export const TENANT_ADMIN_PASSWORD = 'Tenant-keeper-2026!';
export const READ_ONLY_PASSWORD = 'Glance-around-2026!';
const BATCH = 10;

const random = () => randomBytes(4).toString('hex');
const pad = (n: number) => String(n).padStart(3, '0');

/**
 * Sets a password with the /newpassword link of the newest matching mail, as the Set new
 * password screen does. The route is rate-limited per client address (30 a minute), which
 * many parallel tests can reach: a 429 waits its Retry-After and tries again.
 */
async function setPasswordFromMail(
  env: E2eEnv,
  mail: Mailbox,
  tenantId: string,
  who: Credentials,
): Promise<void> {
  const invitation = await mail.waitFor(who.email, /\/newpassword\?token=/);
  const token = new URL(mail.link(invitation, '/newpassword')).searchParams.get('token')!;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await callApi(env.adminUrl, {
        method: 'POST',
        path: '/auth/reset-password',
        body: { token, password: who.password },
        headers: { 'tenant-id': tenantId },
      });
      return;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 429) || Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

/** Every row of a paged list (pages of 100). */
async function allRows<Row>(api: Api, entity: string, sortField = 'name'): Promise<Row[]> {
  const rows: Row[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const page = await api<ListPage<Row>>('POST', `/${entity}/page`, {
      pageIndex,
      pageSize: 100,
      filter: {},
      listSort: { field: sortField, direction: 0 },
    });
    rows.push(...page.data);
    if (rows.length >= page.totalCount || page.data.length === 0) return rows;
  }
}

/** Ids of named rows; an unknown name fails loudly rather than being dropped. */
function idsOf(rows: { id: string; name: string }[], names: string[], what: string): string[] {
  return names.map((name) => {
    const row = rows.find((r) => r.name === name);
    if (!row) throw new Error(`no ${what} "${name}" in this tenant`);
    return row.id;
  });
}

/** The factory behind the `freshTenant` fixture; `disposeAll` runs after the test. */
export function tenantFactory(env: E2eEnv, mail: Mailbox) {
  const superAdmin = apiAs(env, 'master', env.superAdmin);
  const disposers: (() => Promise<void>)[] = [];

  async function create(options: FreshTenantOptions = {}): Promise<FreshTenant> {
    const name = options.name ?? `t-${random()}`;
    const domain = `${name.toLowerCase()}.localhost`;
    const admin = { email: `admin@${domain}`, password: TENANT_ADMIN_PASSWORD };
    const row = await superAdmin.api<Tenant>('POST', '/tenants/create', {
      name,
      domain,
      allowSignup: options.allowSignup ?? false,
      adminEmail: admin.email,
    });
    let disposed = false;
    const dispose = async () => {
      if (disposed) return;
      disposed = true;
      try {
        await superAdmin.api('DELETE', `/tenants/delete/${row.id}`);
      } catch (error) {
        // A spec may have deleted it itself (e.g. through the Tenants screen).
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    };
    // Registered before anything else can fail, so the tenant is removed after the test anyway.
    disposers.push(dispose);

    await setPasswordFromMail(env, mail, row.id, admin);
    const { token, api } = apiAs(env, name, admin);
    if ((options.onboarding ?? 'completed') === 'completed') {
      await api('PUT', '/onboarding', { step: 'complete' });
    }
    const roleId = async (role: string) =>
      idsOf(await allRows<Role>(api, 'roles'), [role], 'role')[0]!;
    let seeded = 0;

    const createUser: FreshTenant['createUser'] = async (input = {}) =>
      api<User>('POST', '/users/create', {
        firstName: input.firstName ?? 'Test',
        lastName: input.lastName ?? 'User',
        email: input.email ?? `user.${random()}@${domain}`,
        roleId: await roleId(input.role ?? 'Member'),
        status: input.status ?? 'active',
      });

    const createRole: FreshTenant['createRole'] = async (input = {}) => {
      const permissions = input.permissions ?? [];
      const permissionIds = permissions.length
        ? idsOf(await allRows<Permission>(api, 'permissions'), permissions, 'permission')
        : [];
      return api<Role>('POST', '/roles/create', {
        name: input.name ?? `Role ${random()}`,
        description: input.description ?? null,
        status: input.status ?? 'active',
        permissionIds,
      });
    };

    return {
      id: row.id,
      name: row.name,
      domain: row.domain,
      url: `http://${row.domain}:${env.port}`,
      admin,
      token,
      api,
      createRole,
      createUser,
      async createPermission(input = {}) {
        const roles = idsOf(await allRows<Role>(api, 'roles'), input.roles ?? ['Admin'], 'role');
        return api<Permission>('POST', '/permissions/create', {
          name: input.name ?? `custom:${random()}`,
          description: input.description ?? null,
          roleIds: roles,
        });
      },
      async createProject(input = {}) {
        const suffix = random();
        return api<Project>('POST', '/projects/create', {
          name: `Project ${suffix}`,
          projectNumber: `P-${suffix}`,
          ...input,
        });
      },
      async seedUsers(n, options = {}) {
        const id = await roleId(options.role ?? 'Member');
        const numbers = Array.from({ length: n }, () => ++seeded);
        const users: User[] = [];
        for (let i = 0; i < numbers.length; i += BATCH) {
          const batch = numbers.slice(i, i + BATCH).map((k) =>
            api<User>('POST', '/users/create', {
              firstName: 'Seed',
              lastName: `User ${pad(k)}`,
              email: `seed.${pad(k)}@${domain}`,
              roleId: id,
            }),
          );
          users.push(...(await Promise.all(batch)));
        }
        return users;
      },
      async readOnlyUser() {
        const reads = (await allRows<Permission>(api, 'permissions'))
          .filter((p) => p.system && p.name.endsWith(':read'))
          .map((p) => p.name);
        const role = await createRole({ name: `Read only ${random()}`, permissions: reads });
        const email = `reader.${random()}@${domain}`;
        const user = await createUser({
          firstName: 'Reed',
          lastName: 'Only',
          email,
          role: role.name,
        });
        const credentials = { email, password: READ_ONLY_PASSWORD };
        await setPasswordFromMail(env, mail, row.id, credentials);
        return { ...credentials, user, role, ...apiAs(env, name, credentials) };
      },
      dispose,
    };
  }

  /** Deletes every tenant of the test; one failing deletion does not keep the others. */
  async function disposeAll(): Promise<void> {
    const results = await Promise.allSettled(disposers.map((dispose) => dispose()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  return { create, disposeAll };
}
