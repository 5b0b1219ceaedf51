import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/tenants';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { insertUser } from '../users';

let server: TestServer;
let tenantA: TenantFixture;
let tenantB: TenantFixture;
let tokenA: string;
let tokenB: string;
let readerToken: string;

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 2)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>');

beforeAll(async () => {
  server = await startTestServer();
  tenantA = await createTenant(server.database.db);
  tenantB = await createTenant(server.database.db);
  tokenA = (await signIn(server, tenantA.name, tenantA.adminEmail, tenantA.password)).access_token;
  tokenB = (await signIn(server, tenantB.name, tenantB.adminEmail, tenantB.password)).access_token;
  const readerEmail = `reader@${tenantA.domain}`;
  await server.database.db.transaction(async (tx) => {
    const roleId = await insertRole(tx, {
      tenantId: tenantA.tenantId,
      name: 'Project viewer',
      permissionIds: [tenantA.permissionIds.get('projects:read')!],
    });
    await insertUser(tx, {
      tenantId: tenantA.tenantId,
      email: readerEmail,
      firstName: 'Rita',
      lastName: 'Reader',
      roleId,
      password: tenantA.password,
    });
  });
  readerToken = (await signIn(server, tenantA.name, readerEmail, tenantA.password)).access_token;
});
afterAll(() => server?.close());

const json = (method: string, path: string, token: string | undefined, body?: unknown) =>
  api(server, path, token, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const upload = (id: string, bytes: Buffer, token = tokenA, type = 'image/png') =>
  api(server, `/projects/${id}/logo`, token, {
    method: 'PUT',
    headers: { 'content-type': type },
    body: new Uint8Array(bytes),
  });

let counter = 0;
async function newProject(token = tokenA) {
  counter += 1;
  const response = await json('POST', '/projects/create', token, {
    name: `Project ${counter}`,
    projectNumber: `ACC-${counter}`,
    budget: '10.00',
  });
  expect(response.status).toBe(201);
  return (await response.json()).data as { id: string; logoUrl: string | null };
}

const fileExists = async (url: string) => {
  const id = url.split('/').at(-1)!;
  const rows = await server.database.db.select().from(files).where(eq(files.id, id));
  return rows.length === 1;
};

describe('project logo', () => {
  it('stores an image, replaces it and removes it', async () => {
    const project = await newProject();
    const first = await upload(project.id, PNG);
    expect(first.status).toBe(200);
    const firstUrl = (await first.json()).data.logoUrl as string;
    expect(firstUrl).toMatch(/^\/api\/v1\.0\/files\/[0-9a-f-]{36}$/);
    expect(await fileExists(firstUrl)).toBe(true);

    const second = await upload(project.id, GIF, tokenA, 'application/octet-stream');
    expect(second.status).toBe(200);
    const secondUrl = (await second.json()).data.logoUrl as string;
    expect(secondUrl).not.toBe(firstUrl);
    expect(await fileExists(firstUrl)).toBe(false);
    const read = await json('GET', `/projects/${project.id}`, tokenA);
    expect((await read.json()).data.logoUrl).toBe(secondUrl);

    const removed = await json('DELETE', `/projects/${project.id}/logo`, tokenA);
    expect(removed.status).toBe(200);
    expect((await removed.json()).data.logoUrl).toBeNull();
    expect(await fileExists(secondUrl)).toBe(false);
  });

  it('refuses non-images, SVG included, with 415 and large images with 413', async () => {
    const project = await newProject();
    for (const [bytes, type] of [
      [SVG, 'image/svg+xml'],
      [Buffer.from('hello'), 'image/png'],
      [Buffer.from('{"a":1}'), 'application/json'],
    ] as const) {
      const response = await upload(project.id, bytes, tokenA, type);
      expect(response.status, type).toBe(415);
      expect(response.headers.get('content-type')).toMatch(/problem\+json/);
    }
    const large = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const tooLarge = await upload(project.id, large);
    expect(tooLarge.status).toBe(413);
    const read = await json('GET', `/projects/${project.id}`, tokenA);
    expect((await read.json()).data.logoUrl).toBeNull();
  });
});

describe('tenant isolation', () => {
  it('answers 404 to another tenant’s token and changes nothing', async () => {
    const project = await newProject(tokenA);
    await upload(project.id, PNG);
    const before = await (await json('GET', `/projects/${project.id}`, tokenA)).json();

    expect((await json('GET', `/projects/${project.id}`, tokenB)).status).toBe(404);
    const update = await json('PUT', '/projects/update', tokenB, {
      id: project.id,
      name: 'Hijacked',
      projectNumber: 'X-1',
    });
    expect(update.status).toBe(404);
    expect((await json('POST', `/projects/delete/${project.id}`, tokenB)).status).toBe(404);
    expect((await upload(project.id, GIF, tokenB)).status).toBe(404);
    expect((await json('DELETE', `/projects/${project.id}/logo`, tokenB)).status).toBe(404);
    const listed = await json('POST', '/projects/page', tokenB, { filter: { search: 'Project' } });
    expect((await listed.json()).data.totalCount).toBe(0);

    const after = await (await json('GET', `/projects/${project.id}`, tokenA)).json();
    expect(after).toEqual(before);
  });

  it('ignores a tenant id in the body', async () => {
    const response = await json('POST', '/projects/create', tokenB, {
      name: 'Mine',
      projectNumber: 'B-1',
      tenantId: tenantA.tenantId,
    });
    expect(response.status).toBe(201);
    const list = await json('POST', '/projects/page', tokenA, { filter: { search: 'Mine' } });
    expect((await list.json()).data.totalCount).toBe(0);
  });
});

describe('permissions', () => {
  it('lets projects:read list and read but not write (403)', async () => {
    const project = await newProject();
    expect((await json('POST', '/projects/page', readerToken, {})).status).toBe(200);
    expect((await json('GET', `/projects/${project.id}`, readerToken)).status).toBe(200);
    const writes = [
      json('POST', '/projects/create', readerToken, { name: 'No', projectNumber: 'NO-1' }),
      json('PUT', '/projects/update', readerToken, {
        id: project.id,
        name: 'No',
        projectNumber: 'NO-2',
      }),
      json('POST', `/projects/delete/${project.id}`, readerToken),
      upload(project.id, PNG, readerToken),
      json('DELETE', `/projects/${project.id}/logo`, readerToken),
    ];
    for (const response of await Promise.all(writes)) expect(response.status).toBe(403);
    expect((await json('GET', `/projects/${project.id}`, tokenA)).status).toBe(200);
  });

  it('needs a token', async () => {
    expect((await json('POST', '/projects/page', undefined, {})).status).toBe(401);
  });

  it('documents the routes in OpenAPI', async () => {
    const response = await fetch(`${server.url}/api/docs/openapi.json`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1.0/projects/page', '/api/v1.0/projects/{id}/logo']),
    );
    expect(document.components.schemas).toHaveProperty('Project');
  });
});
