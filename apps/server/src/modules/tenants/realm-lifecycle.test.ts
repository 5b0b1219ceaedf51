import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { roles, users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import {
  api,
  createTenant,
  refreshForm,
  signIn,
  tokenRequest,
  uniqueName,
} from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { findMasterRealm } from './queries';
import { createTenantViaApi, sendJson, superAdminToken } from '../../test/helpers/tenants';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await superAdminToken(server);
});
afterAll(() => server?.close());

const page = (body: unknown) => sendJson(server, token, 'POST', '/tenants/page', body);

describe('the master realm', () => {
  it('is not listed, read, changed or deleted through these routes', async () => {
    const master = await findMasterRealm(server.database.db);
    const all = await (await page({ pageSize: 100 })).json();
    expect(all.data.data.map((t: { id: string }) => t.id)).not.toContain(master!.id);
    expect((await page({ filter: { search: 'master' } })).status).toBe(200);
    expect((await sendJson(server, token, 'GET', `/tenants/${master!.id}`)).status).toBe(404);
    const update = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: master!.id,
      name: uniqueName(),
      domain: `${uniqueName()}.example.test`,
    });
    expect(update.status).toBe(404);
    const remove = await sendJson(server, token, 'DELETE', `/tenants/delete/${master!.id}`);
    expect(remove.status).toBe(404);
    const logo = await sendJson(server, token, 'DELETE', `/tenants/${master!.id}/logo`);
    expect(logo.status).toBe(404);
    const [still] = await server.database.db
      .select()
      .from(tenants)
      .where(eq(tenants.isMaster, true));
    expect(still).toMatchObject({ name: 'master', domain: null });
  });
});

describe('realm lifecycle', () => {
  it('a rename moves the token endpoint at once: the new name works, the old answers 404', async () => {
    const tenant = await createTenant(server.database.db);
    const row = (await (await sendJson(server, token, 'GET', `/tenants/${tenant.tenantId}`)).json())
      .data;
    const newName = uniqueName('r');
    const renamed = await sendJson(server, token, 'PUT', '/tenants/update', {
      id: row.id,
      name: newName,
      domain: row.domain,
    });
    expect(renamed.status).toBe(200);
    const tokens = await signIn(server, newName, tenant.adminEmail, tenant.password);
    expect(tokens.tenantId).toBe(tenant.tenantId);
    const old = await tokenRequest(server, tenant.name, {
      client_id: 'react-client',
      grant_type: 'password',
      username: tenant.adminEmail,
      password: tenant.password,
    });
    expect(old.status).toBe(404);
  });

  it('a delete removes all the tenant’s data; its access tokens 401 and refresh fails', async () => {
    const tenant = await createTenant(server.database.db);
    const session = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    expect((await api(server, '/auth/me', session.access_token)).status).toBe(200);

    const deleted = await sendJson(server, token, 'DELETE', `/tenants/delete/${tenant.tenantId}`);
    expect(deleted.status).toBe(200);

    expect((await api(server, '/auth/me', session.access_token)).status).toBe(401);
    const refresh = await tokenRequest(server, tenant.name, refreshForm(session.refresh_token));
    expect(refresh.status).toBeGreaterThanOrEqual(400);
    const db = server.database.db;
    expect(await db.select().from(users).where(eq(users.tenantId, tenant.tenantId))).toEqual([]);
    expect(await db.select().from(roles).where(eq(roles.tenantId, tenant.tenantId))).toEqual([]);
    // The deletion is kept in the master realm's history.
    const master = await findMasterRealm(db);
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, master!.id), eq(auditLog.entityId, tenant.tenantId)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entity: 'tenants', action: 'delete' });
    expect(entries[0]!.before).toMatchObject({ name: tenant.name });
  });

  it('adminEmail invites the first administrator with the Admin role and no password', async () => {
    const email = `Jane.Doe+${uniqueName()}@Example.test`;
    const row = await createTenantViaApi(server, token, { adminEmail: email });
    const db = server.database.db;
    const [admin] = await db
      .select({ user: users, role: roles.name })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.tenantId, row.id));
    expect(admin).toMatchObject({
      role: 'Admin',
      user: { email: email.toLowerCase(), firstName: 'Jane', passwordHash: null },
    });
    const signInAttempt = await tokenRequest(server, row.name, {
      client_id: 'react-client',
      grant_type: 'password',
      username: email,
      password: '',
    });
    expect(signInAttempt.status).toBe(401);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, row.id), eq(auditLog.action, 'create')));
    expect(entry).toMatchObject({ entity: 'tenants', entityId: row.id });
    expect(entry!.after).toMatchObject({
      name: row.name,
      invitation: { userId: admin!.user.id, email: email.toLowerCase() },
    });
  });
});

describe('who may call', () => {
  it('a tenant administrator’s token gets 403 on every tenant route; no token 401', async () => {
    const tenant = await createTenant(server.database.db);
    const tenantToken = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password))
      .access_token;
    const id = tenant.tenantId;
    const body = { id, name: tenant.name, domain: tenant.domain };
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/tenants/page', {}],
      ['GET', `/tenants/${id}`, undefined],
      ['POST', '/tenants/create', { name: uniqueName(), domain: `${uniqueName()}.example.test` }],
      ['PUT', '/tenants/update', body],
      ['DELETE', `/tenants/delete/${id}`, undefined],
      ['DELETE', `/tenants/${id}/logo`, undefined],
    ];
    for (const [method, path, payload] of calls) {
      const forbidden = await sendJson(server, tenantToken, method, path, payload);
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      const anonymous = await sendJson(server, undefined, method, path, payload);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    const upload = await api(server, `/tenants/${id}/logo`, tenantToken, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
    expect(upload.status).toBe(403);
    expect((await sendJson(server, token, 'GET', `/tenants/${id}`)).status).toBe(200);
  });

  it('a super administrator’s token gets 403 on tenant data routes', async () => {
    const response = await sendJson(server, token, 'POST', '/users/page', {});
    expect(response.status).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the tenant routes and the Tenant schema', async () => {
    const doc = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1.0/tenants/page',
        '/api/v1.0/tenants/create',
        '/api/v1.0/tenants/update',
        '/api/v1.0/tenants/delete/{id}',
        '/api/v1.0/tenants/{id}',
        '/api/v1.0/tenants/{id}/logo',
        '/api/v1.0/files/{id}',
      ]),
    );
    expect(doc.components.schemas.Tenant).toBeDefined();
  });
});
