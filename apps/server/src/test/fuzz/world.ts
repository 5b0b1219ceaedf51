import { eq } from 'drizzle-orm';
import { CLIENT_ID, MASTER_REALM } from '@tc/contract/permissions';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { insertUser } from '../../modules/users';
import { createTenant, type TenantFixture } from '../fixtures';
import { TEST_PASSWORD } from '../harness';
import { prepareOpenIdWorld, type OpenIdWorld } from './openid-world';
import { openFormPass, type FormPass } from './form-pass';

/**
 * What the fuzzing needs before it starts: a tenant that allows sign-up, its signed-in admin,
 * the signed-in super administrator, a "victim" user whose sign-ins the token endpoint's
 * fuzzing may lock out, and a few rows of every kind. Rows come in two pools: `kept` for
 * reading and editing, `doomed` for deleting, so the deletes do not starve the edits.
 */
export interface FuzzAccounts {
  tenant: TenantFixture;
  victim: { email: string; password: string };
}

export interface IdPools {
  kept: string[];
  doomed: string[];
}

export interface FuzzWorld {
  url: string;
  tenant: TenantFixture;
  adminToken: string;
  superAdminToken: string;
  victim: FuzzAccounts['victim'] & { refreshTokens: string[]; accessToken: string };
  systemPermissionIds: string[];
  roles: IdPools;
  users: IdPools;
  permissions: IdPools;
  projects: IdPools;
  clients: IdPools;
  tenants: IdPools;
  fileIds: string[];
  /** ID tokens signed by the stand-in Google, with odd claims; empty when it is not running. */
  googleCredentials: string[];
  /** The OpenID provider's applications, and the victim's sign-ins at each step. */
  openId: OpenIdWorld;
  /** A browser's form cookie and token, which the sign-in pages' forms post. */
  formPass: FormPass;
}

/** Made straight in the database (a password is needed, and invitations have none). */
export async function createFuzzAccounts(db: Database): Promise<FuzzAccounts> {
  const tenant = await createTenant(db);
  await db.update(tenants).set({ allowSignup: true }).where(eq(tenants.id, tenant.tenantId));
  const victim = { email: `victim@${tenant.domain}`, password: TEST_PASSWORD };
  await insertUser(db, {
    tenantId: tenant.tenantId,
    email: victim.email,
    firstName: 'Vic',
    lastName: 'Tim',
    roleId: tenant.memberRoleId,
    password: victim.password,
  });
  return { tenant, victim };
}

async function passwordGrant(url: string, realm: string, username: string, password: string) {
  const response = await fetch(`${url}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, grant_type: 'password', username, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${username}: ${response.status}`);
  return (await response.json()) as { access_token: string; refresh_token: string };
}

/** One API call that must succeed; answers `data`. */
async function call<T>(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/api/v1.0${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body instanceof Buffer
        ? { 'content-type': 'image/png' }
        : body === undefined
          ? {}
          : { 'content-type': 'application/json' }),
    },
    body: body instanceof Buffer ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export async function prepareFuzzWorld(options: {
  url: string;
  accounts: FuzzAccounts;
  superAdmin: { email: string; password: string };
  googleCredentials?: string[];
}): Promise<FuzzWorld> {
  const { url, accounts } = options;
  const { tenant, victim } = accounts;
  const admin = await passwordGrant(url, tenant.name, tenant.adminEmail, tenant.password);
  const superAdmin = await passwordGrant(
    url,
    MASTER_REALM,
    options.superAdmin.email,
    options.superAdmin.password,
  );
  const victimTokens = [];
  for (let i = 0; i < 3; i += 1) {
    victimTokens.push(await passwordGrant(url, tenant.name, victim.email, victim.password));
  }
  const asAdmin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(url, admin.access_token, method, path, body);
  const asSuperAdmin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(url, superAdmin.access_token, method, path, body);
  const pools = async (make: (i: number) => Promise<string>): Promise<IdPools> => {
    const ids = [];
    for (let i = 0; i < 6; i += 1) ids.push(await make(i));
    return { kept: ids.slice(0, 3), doomed: ids.slice(3) };
  };
  type Row = { id: string };

  const roles = await pools(
    async (i) => (await asAdmin<Row>('POST', '/roles/create', { name: `Fuzz role ${i}` })).id,
  );
  const permissions = await pools(
    async (i) =>
      (
        await asAdmin<Row>('POST', '/permissions/create', {
          name: `fuzz:permission-${i}`,
          roleIds: [roles.kept[i % 3]],
        })
      ).id,
  );
  const users = await pools(
    async (i) =>
      (
        await asAdmin<Row>('POST', '/users/create', {
          firstName: 'Fuzz',
          lastName: `User ${i}`,
          email: `fuzz-user-${i}@${tenant.domain}`,
          roleId: roles.kept[i % 3],
        })
      ).id,
  );
  const projects = await pools(
    async (i) =>
      (
        await asAdmin<Row>('POST', '/projects/create', {
          name: `Fuzz project ${i}`,
          projectNumber: `F-${i}`,
          ownerId: users.kept[0],
          peopleIds: users.kept,
        })
      ).id,
  );
  const clients = await pools(
    async (i) =>
      (
        await asAdmin<Row>('POST', '/clients/create', {
          clientId: `fuzz-client-${i}`,
          name: `Fuzz client ${i}`,
          type: 'confidential',
          grantTypes: ['client_credentials'],
          serviceRoleIds: [roles.kept[i % 3]],
        })
      ).id,
  );
  const tenantPools = await pools(async (i) => {
    const name = `${tenant.name}-other-${i}`;
    return (await asSuperAdmin<Row>('POST', '/tenants/create', { name, domain: `${name}.test` }))
      .id;
  });
  const project = await asAdmin<{ logoUrl: string }>(
    'PUT',
    `/projects/${projects.kept[0]}/logo`,
    PNG,
  );
  const other = await asSuperAdmin<{ logoUrl: string }>(
    'PUT',
    `/tenants/${tenantPools.kept[0]}/logo`,
    PNG,
  );
  const fileIds = [project.logoUrl, other.logoUrl].map((logoUrl) => logoUrl.split('/').pop()!);
  const openId = await prepareOpenIdWorld({ url, realm: tenant.name, user: victim, asAdmin });

  return {
    url,
    tenant,
    adminToken: admin.access_token,
    superAdminToken: superAdmin.access_token,
    victim: {
      ...victim,
      accessToken: victimTokens[0]!.access_token,
      refreshTokens: victimTokens.map((t) => t.refresh_token),
    },
    systemPermissionIds: [...tenant.permissionIds.values()],
    roles,
    users,
    permissions,
    projects,
    clients,
    tenants: tenantPools,
    fileIds,
    googleCredentials: options.googleCredentials ?? [],
    openId,
    formPass: await openFormPass(url),
  };
}
