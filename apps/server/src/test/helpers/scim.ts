import { sql } from 'drizzle-orm';
import { digestClientSecret } from '../../identity/openid/client-secret';
import { insertRole } from '../../modules/roles';
import { createTenant, type TenantFixture } from '../fixtures';
import type { TestServer } from '../harness';
import { basicAuth, postForm } from './conformance';
import { insertClient } from './relying-party';

const SECRET = 'scim-secret-0123456789abcdefghijklmnopqrstuvwxyz';

/** A confidential application of the tenant, its service roles, and its client-credentials token. */
export async function scimApplication(
  server: TestServer,
  tenant: TenantFixture,
  clientId: string,
  roleIds: string[],
): Promise<string> {
  const db = server.database.db;
  await insertClient(db, tenant.tenantId, {
    clientId,
    type: 'confidential',
    secretDigest: digestClientSecret(SECRET),
    grantTypes: ['client_credentials'],
  });
  for (const roleId of roleIds) {
    await db.execute(sql`
      insert into client_service_roles (client_row_id, role_id)
      select id, ${roleId} from clients where tenant_id = ${tenant.tenantId} and client_id = ${clientId}`);
  }
  return applicationToken(server, tenant.name, clientId);
}

export async function applicationToken(server: TestServer, realm: string, clientId: string) {
  const response = await postForm(
    server,
    realm,
    '/token',
    { grant_type: 'client_credentials' },
    basicAuth(clientId, SECRET),
  );
  if (response.status !== 200) throw new Error(`client credentials: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A role holding exactly the named permissions of the tenant. */
export async function roleWith(
  server: TestServer,
  tenantId: string,
  name: string,
  permissions: string[],
) {
  const db = server.database.db;
  const rows = (await db.execute(sql`
    select id from permissions where tenant_id = ${tenantId}
      and name in (${sql.join(
        permissions.map((p) => sql`${p}`),
        sql`, `,
      )})`)) as unknown as {
    rows: Array<{ id: string }>;
  };
  return db.transaction((tx) =>
    insertRole(tx, { tenantId, name, permissionIds: rows.rows.map((row) => row.id) }),
  );
}

export interface ScimAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- SCIM JSON, read by the tests
  body: any;
}

/** A tenant with an application holding the Admin role, and a SCIM caller for it. */
export async function scimTenant(server: TestServer) {
  const tenant = await createTenant(server.database.db);
  const token = await scimApplication(server, tenant, 'scim-app', [tenant.adminRoleId]);
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    as = token,
  ): Promise<ScimAnswer> => {
    const response = await fetch(`${server.url}/scim/v2/${tenant.name}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  };
  return { tenant, token, call };
}

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export const newUser = (email: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA],
  userName: email,
  name: { givenName: 'Grace', familyName: 'Hopper' },
  emails: [{ value: email, type: 'work', primary: true }],
  active: true,
  ...extra,
});

export const patchOf = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations });
