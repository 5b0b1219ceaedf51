import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { clients } from '../../db/schema/clients';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
let tenant: TenantFixture;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password)).access_token;
});
afterAll(() => server?.close());

const send = (method: string, path: string, body?: unknown) =>
  api(server, path, token, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const clientId = () => `app-${randomUUID().slice(0, 8)}`;
const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');

const confidential = () => ({
  clientId: clientId(),
  name: 'Reporting service',
  type: 'confidential',
  redirectUris: ['https://reports.example.com/callback'],
  postLogoutRedirectUris: ['https://reports.example.com/'],
  webOrigins: ['https://Reports.example.com'],
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  idTokenSignedResponseAlg: 'ES256',
});
const publicClient = () => ({
  clientId: clientId(),
  name: 'Mobile app',
  type: 'public',
  redirectUris: ['com.example.app:/callback', 'http://127.0.0.1:8765/cb'],
  grantTypes: ['authorization_code', 'refresh_token'],
});

async function storedHash(id: string) {
  const [row] = await server.database.db
    .select({ hash: clients.secretHash })
    .from(clients)
    .where(eq(clients.id, id));
  return row?.hash;
}

async function create(body: Record<string, unknown>) {
  const response = await send('POST', '/clients/create', body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()).data as Record<string, unknown> & { id: string };
}

describe('create, read, update, delete', () => {
  it('creates a confidential client and answers its secret once, keeping only its digest', async () => {
    const input = confidential();
    const data = await create(input);
    expect(data).toMatchObject({
      clientId: input.clientId,
      name: input.name,
      type: 'confidential',
      redirectUris: input.redirectUris,
      postLogoutRedirectUris: input.postLogoutRedirectUris,
      // Stored as the browser's Origin header carries it.
      webOrigins: ['https://reports.example.com'],
      grantTypes: input.grantTypes,
      serviceRoleIds: [],
      idTokenSignedResponseAlg: 'ES256',
      builtIn: false,
    });
    const secret = data.clientSecret as string;
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(await storedHash(data.id)).toBe(digest(secret));

    const got = await (await send('GET', `/clients/${data.id}`)).json();
    expect(got.data).not.toHaveProperty('clientSecret');
    expect(JSON.stringify(got)).not.toContain(secret);
    const page = await send('POST', '/clients/page', { filter: { search: input.clientId } });
    const text = await page.text();
    expect(JSON.parse(text).data.totalCount).toBe(1);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(digest(secret));
    expect(text).not.toContain('secretHash');
  });

  it('creates a public client without a secret', async () => {
    const data = await create(publicClient());
    expect(data.clientSecret).toBeUndefined();
    expect(data.idTokenSignedResponseAlg).toBe('RS256');
    expect(await storedHash(data.id)).toBeNull();
  });

  it('rotates the secret of a confidential client and replaces the digest', async () => {
    const data = await create(confidential());
    const first = data.clientSecret as string;
    const response = await send('POST', `/clients/${data.id}/rotate-secret`);
    expect(response.status).toBe(200);
    const { clientSecret } = (await response.json()).data;
    expect(clientSecret).not.toBe(first);
    expect(await storedHash(data.id)).toBe(digest(clientSecret));
  });

  it('refuses to rotate the secret of a public client', async () => {
    const data = await create(publicClient());
    const response = await send('POST', `/clients/${data.id}/rotate-secret`);
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe('client.secret_public');
  });

  it('updates, makes a secret when turned confidential and drops it when turned public', async () => {
    const input = publicClient();
    const data = await create(input);
    const turned = await send('PUT', '/clients/update', {
      ...input,
      id: data.id,
      name: 'Mobile app v2',
      type: 'confidential',
    });
    expect(turned.status).toBe(200);
    const updated = (await turned.json()).data;
    expect(updated).toMatchObject({ name: 'Mobile app v2', type: 'confidential' });
    expect(await storedHash(data.id)).toBe(digest(updated.clientSecret));

    const back = await send('PUT', '/clients/update', { ...input, id: data.id });
    expect((await back.json()).data.clientSecret).toBeUndefined();
    expect(await storedHash(data.id)).toBeNull();
  });

  it('deletes a client and writes an audit entry for every change, never the secret', async () => {
    const data = await create(confidential());
    const rotated = await send('POST', `/clients/${data.id}/rotate-secret`);
    const { clientSecret } = (await rotated.json()).data;
    expect((await send('POST', `/clients/delete/${data.id}`)).status).toBe(200);
    expect((await send('GET', `/clients/${data.id}`)).status).toBe(404);
    const rows = await server.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'clients'), eq(auditLog.entityId, data.id)));
    expect(rows.map((row) => row.action).sort()).toEqual(['create', 'delete', 'update']);
    expect(rows.every((row) => row.actorId === tenant.adminId)).toBe(true);
    expect(rows.find((row) => row.action === 'update')?.after).toMatchObject({
      secretRotated: true,
    });
    const logged = JSON.stringify(rows);
    for (const secret of [data.clientSecret as string, clientSecret as string]) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(digest(secret));
    }
  });

  it('answers 409 on clientId when the client ID is taken', async () => {
    const input = publicClient();
    await create(input);
    const response = await send('POST', '/clients/create', { ...input, name: 'Another' });
    expect(response.status).toBe(409);
    const problem = await response.json();
    expect(problem.code).toBe('client.id_taken');
    expect(problem.fields.clientId.code).toBe('client.id_taken');
  });
});

describe('the built-in client', () => {
  async function builtIn() {
    const page = await send('POST', '/clients/page', { filter: { search: 'react-client' } });
    const rows = (await page.json()).data.data as Record<string, unknown>[];
    return rows.find((row) => row.clientId === 'react-client')!;
  }

  it('exists in a new tenant as the console left it', async () => {
    expect(await builtIn()).toMatchObject({
      name: 'Tenant Console',
      type: 'public',
      grantTypes: ['authorization_code', 'refresh_token', 'password'],
      idTokenSignedResponseAlg: 'ES256',
      redirectUris: [],
      builtIn: true,
      firstParty: true,
      consoleApiAccess: true,
    });
  });

  it('cannot be deleted, nor changed through the API but for its name', async () => {
    const row = await builtIn();
    const deleted = await send('POST', `/clients/delete/${row.id as string}`);
    expect(deleted.status).toBe(409);
    expect((await deleted.json()).code).toBe('client.built_in_deleted');

    // The form's fields: the row without what the server keeps to itself.
    const fields = { ...row };
    for (const key of ['createdAt', 'updatedAt', 'builtIn']) delete fields[key];
    // Its addresses are the server's own and its tokens carry all their user holds: a change
    // of any field but its name would let someone redirect the console's codes or weaken it.
    for (const [field, change] of [
      ['clientId', { clientId: 'renamed', redirectUris: ['https://console.example.com/cb'] }],
      ['type', { type: 'confidential' }],
      ['redirectUris', { redirectUris: ['https://console.example.com/callback'] }],
      ['postLogoutRedirectUris', { postLogoutRedirectUris: ['https://console.example.com/'] }],
      ['webOrigins', { webOrigins: ['https://console.example.com'] }],
      ['grantTypes', { grantTypes: ['authorization_code'] }],
      ['idTokenSignedResponseAlg', { idTokenSignedResponseAlg: 'RS256' }],
      ['consoleApiAccess', { consoleApiAccess: false }],
      ['firstParty', { firstParty: false }],
    ] as const) {
      const refused = await send('PUT', '/clients/update', { ...fields, ...change });
      expect(refused.status).toBe(409);
      const problem = await refused.json();
      expect(problem.code).toBe('client.built_in_changed');
      expect(Object.keys(problem.fields)).toContain(field);
    }
    const renamed = await send('PUT', '/clients/update', { ...fields, name: 'Console' });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data.name).toBe('Console');
  });
});
