import { randomBytes } from 'node:crypto';
import type { Page } from '@tc/contract/paging';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { tenants } from '../db/schema/tenants';
import { provisionTenant, type ProvisionedTenant } from '../modules/tenants';
import { insertUser } from '../modules/users';
import { TEST_PASSWORD, type TestServer } from './harness';

export interface TenantFixture extends ProvisionedTenant {
  name: string;
  domain: string;
  adminId: string;
  adminEmail: string;
  password: string;
}

export const uniqueName = (prefix = 't') => `${prefix}${randomBytes(5).toString('hex')}`;

/** A fresh tenant with an Admin user, made through the same service the product uses. */
export async function createTenant(
  db: Database,
  options: { name?: string; adminEmail?: string } = {},
): Promise<TenantFixture> {
  const name = options.name ?? uniqueName();
  const domain = `${name}.example.test`;
  const adminEmail = options.adminEmail ?? `admin@${domain}`;
  return db.transaction(async (tx) => {
    const tenant = await provisionTenant(tx, { name, domain });
    const adminId = await insertUser(tx, {
      tenantId: tenant.tenantId,
      email: adminEmail,
      firstName: 'Ada',
      lastName: 'Admin',
      roleId: tenant.adminRoleId,
      password: TEST_PASSWORD,
    });
    return { ...tenant, name, domain, adminId, adminEmail, password: TEST_PASSWORD };
  });
}

export async function disableTenant(db: Database, tenantId: string) {
  await db.update(tenants).set({ enabled: false }).where(eq(tenants.id, tenantId));
}

/** POSTs a form to a realm's token endpoint, as a Keycloak client would. */
export function tokenRequest(server: TestServer, realm: string, form: Record<string, string>) {
  return fetch(`${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
}

export async function signIn(server: TestServer, realm: string, email: string, password: string) {
  const response = await tokenRequest(server, realm, {
    client_id: 'react-client',
    grant_type: 'password',
    username: email,
    password,
  });
  if (response.status !== 200) {
    throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    refresh_expires_in: number;
    tenantId: string;
  };
}

export const refreshForm = (refreshToken: string) => ({
  client_id: 'react-client',
  grant_type: 'refresh_token',
  refresh_token: refreshToken,
});

/** Calls the API with a bearer token. */
export function api(server: TestServer, path: string, token?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${server.url}/api/v1.0${path}`, { ...init, headers });
}

/** A fresh tenant whose admin is signed in: what most API tests start from. */
export async function createSignedInTenant(server: TestServer) {
  const tenant = await createTenant(server.database.db);
  const { access_token: token } = await signIn(
    server,
    tenant.name,
    tenant.adminEmail,
    tenant.password,
  );
  return { ...tenant, token };
}

/** An answer body as tests read it: a row, a page of rows, or a problem. */
export interface ApiAnswer<Row> {
  data: Row & Page<Row>;
  errors: Record<string, string>;
  detail: string;
}

/** One API call with an optional JSON body; answers the status and the parsed body. */
export async function callApi<Row>(
  server: TestServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const init = { method, body: body === undefined ? undefined : JSON.stringify(body) };
  const response = await api(server, path, token, init);
  return { status: response.status, body: (await response.json()) as ApiAnswer<Row> };
}
