import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import { api, createSignedInTenant, uniqueName, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;
let token: string;
let otherToken: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token, ...tenant } = await createSignedInTenant(server));
  ({ token: otherToken, ...other } = await createSignedInTenant(server));
});
afterAll(() => server?.close());

const send = (method: string, path: string, bearer: string, body?: unknown) =>
  api(server, path, bearer, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const newUser = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email: `${uniqueName('u')}@example.test`,
  roleId: tenant.memberRoleId,
  ...overrides,
});

async function create(body: Record<string, unknown>, bearer = token) {
  const response = await send('POST', '/users/create', bearer, body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Record<string, unknown> & { id: string } }).data;
}

const auditOf = (entityId: string) =>
  server.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, entityId), eq(auditLog.entity, 'users')));

describe('users CRUD', () => {
  it('creates an invited user, trimmed and with a lower-case e-mail, and audits it', async () => {
    const email = `${uniqueName('Mixed')}@Example.TEST`;
    const created = await create(
      newUser({ firstName: '  Grace ', email: ` ${email} `, password: 'Sneaky-pass-1!' }),
    );
    expect(created).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: email.toLowerCase(),
      roleId: tenant.memberRoleId,
      role: 'Member',
      status: 'active',
      invited: true,
    });
    expect(new Date(created.createdAt as string).toISOString()).toBe(created.createdAt);
    const [stored] = await server.database.db
      .select({ passwordHash: users.passwordHash, tenantId: users.tenantId })
      .from(users)
      .where(eq(users.id, created.id));
    expect(stored).toEqual({ passwordHash: null, tenantId: tenant.tenantId });
    const audit = await auditOf(created.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', actorId: tenant.adminId, before: null });
    expect(JSON.stringify(audit[0]!.after)).not.toContain('password');
  });

  it('reads, updates and deletes a user', async () => {
    const created = await create(newUser());
    const read = await send('GET', `/users/${created.id}`, token);
    expect(read.status).toBe(200);
    expect((await read.json()).data).toEqual(created);

    const update = {
      id: created.id,
      firstName: 'Anita',
      lastName: 'Borg',
      email: `${uniqueName('b')}@EXAMPLE.test`,
      roleId: tenant.adminRoleId,
      status: 'inactive',
    };
    const updated = await send('PUT', '/users/update', token, update);
    expect(updated.status).toBe(200);
    expect((await updated.json()).data).toMatchObject({
      ...update,
      email: update.email.toLowerCase(),
      role: 'Admin',
      invited: true,
      createdAt: created.createdAt,
    });

    const removed = await send('POST', `/users/delete/${created.id}`, token);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ data: { id: created.id } });
    expect((await send('GET', `/users/${created.id}`, token)).status).toBe(404);
    expect((await auditOf(created.id)).map((entry) => entry.action).sort()).toEqual([
      'create',
      'delete',
      'update',
    ]);
  });

  it('keeps the status when an update leaves it out', async () => {
    const created = await create(newUser({ status: 'inactive' }));
    const { id, firstName, lastName, email, roleId } = created;
    const response = await send('PUT', '/users/update', token, {
      ...{ id, firstName, lastName, email, roleId },
      lastName: 'Changed',
    });
    expect(response.status).toBe(200);
    expect((await response.json()).data).toMatchObject({ lastName: 'Changed', status: 'inactive' });
  });

  it('answers 404 for an unknown id on read, update and delete', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await send('GET', `/users/${id}`, token)).status).toBe(404);
    expect((await send('PUT', '/users/update', token, { ...newUser(), id })).status).toBe(404);
    expect((await send('POST', `/users/delete/${id}`, token)).status).toBe(404);
  });
});

describe('users validation', () => {
  async function expectFieldError(body: Record<string, unknown>, field: string, message: string) {
    const response = await send('POST', '/users/create', token, body);
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(problem.errors[field]).toBe(message);
  }

  it('requires first and last names of 1..100 characters', async () => {
    await expectFieldError(newUser({ firstName: '   ' }), 'firstName', 'Enter a first name.');
    await expectFieldError(newUser({ firstName: undefined }), 'firstName', 'Enter a first name.');
    await expectFieldError(newUser({ lastName: '' }), 'lastName', 'Enter a last name.');
    await expectFieldError(
      newUser({ lastName: 'x'.repeat(101) }),
      'lastName',
      'The last name can be at most 100 characters long.',
    );
    await create(newUser({ firstName: 'x'.repeat(100) }));
  });

  it('requires a valid e-mail address', async () => {
    await expectFieldError(
      newUser({ email: 'not-an-email' }),
      'email',
      'Enter a valid e-mail address.',
    );
    await expectFieldError(newUser({ email: undefined }), 'email', 'Enter an e-mail address.');
  });

  it('requires a role of the same tenant', async () => {
    await expectFieldError(newUser({ roleId: 'admin' }), 'roleId', 'Choose a role.');
    await expectFieldError(newUser({ roleId: other.adminRoleId }), 'roleId', 'Unknown role.');
    const created = await create(newUser());
    const response = await send('PUT', '/users/update', token, {
      ...newUser({ roleId: other.memberRoleId }),
      id: created.id,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual({ roleId: 'Unknown role.' });
  });

  it('accepts only active or inactive as status', async () => {
    const response = await send('POST', '/users/create', token, newUser({ status: 'gone' }));
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toHaveProperty('status');
  });

  it('answers 409 on a duplicate e-mail, also differing in case, on create and update', async () => {
    const email = `${uniqueName('dup')}@example.test`;
    await create(newUser({ email }));
    for (const duplicate of [email, email.toUpperCase()]) {
      const response = await send('POST', '/users/create', token, newUser({ email: duplicate }));
      expect(response.status).toBe(409);
      expect((await response.json()).errors).toEqual({
        email: 'This e-mail address is already in use.',
      });
    }
    const second = await create(newUser());
    const response = await send('PUT', '/users/update', token, {
      ...newUser({ email: email.toUpperCase() }),
      id: second.id,
    });
    expect(response.status).toBe(409);
    expect((await response.json()).errors).toHaveProperty('email');
  });

  it('allows the same e-mail in another tenant', async () => {
    const email = `${uniqueName('both')}@example.test`;
    await create(newUser({ email }));
    await create(newUser({ email, roleId: other.memberRoleId }), otherToken);
  });
});

describe('users OpenAPI', () => {
  it('documents the five routes with the contract’s named schemas', async () => {
    const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
    for (const path of ['page', 'create', 'update', 'delete/{id}', '{id}']) {
      expect(document.paths).toHaveProperty([`/api/v1.0/users/${path}`]);
    }
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['User', 'UserCreate', 'UserUpdate', 'UserPageRequest', 'UserPage']),
    );
  });
});
