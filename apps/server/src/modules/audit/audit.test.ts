import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPageRequest } from '@tc/contract/audit';
import { eq } from 'drizzle-orm';
import { auditLog, events } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { insertUser } from '../users';
import { recordChange, type Change } from './record';

let server: TestServer;
let a: TenantFixture;
let b: TenantFixture;
let tokenA: string;
let tokenB: string;

const record = (change: Change) => server.database.db.transaction((tx) => recordChange(tx, change));

type PageBody = Partial<Omit<AuditPageRequest, 'filter'>> & { filter?: Record<string, unknown> };

async function page(token: string, body: PageBody = {}) {
  const response = await api(server, '/audit/page', token, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as never };
}

async function rows(token: string, body: PageBody = {}) {
  const { status, body: json } = await page(token, body);
  expect(status).toBe(200);
  return (json as { data: { data: AuditEntry[]; totalCount: number } }).data;
}

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.database.db);
  b = await createTenant(server.database.db);
  tokenA = (await signIn(server, a.name, a.adminEmail, TEST_PASSWORD)).access_token;
  tokenB = (await signIn(server, b.name, b.adminEmail, TEST_PASSWORD)).access_token;
  // Tenant A: three projects and a user change; tenant B: one project.
  for (const [i, name] of ['alpha', 'beta', 'gamma'].entries()) {
    await record({
      tenantId: a.tenantId,
      actorId: a.adminId,
      entity: 'projects',
      action: 'create',
      entityId: `p${i}`,
      after: { name },
    });
  }
  await record({
    tenantId: a.tenantId,
    actorId: a.adminId,
    entity: 'users',
    action: 'update',
    entityId: a.adminId,
    before: { firstName: 'Ada' },
    after: { firstName: 'Ava' },
  });
  await record({
    tenantId: b.tenantId,
    actorId: b.adminId,
    entity: 'projects',
    action: 'delete',
    entityId: 'pb',
    before: { name: 'secret of b' },
  });
});

afterAll(async () => {
  await server?.close();
});

describe('POST /audit/page', () => {
  it("lists only the caller's tenant's entries, newest first, with the actor's e-mail", async () => {
    const result = await rows(tokenA);
    expect(result.totalCount).toBe(4);
    expect(result.data.map((row) => row.entityId)).toEqual([a.adminId, 'p2', 'p1', 'p0']);
    const [latest] = result.data;
    expect(latest).toMatchObject({
      actorId: a.adminId,
      actorEmail: a.adminEmail,
      action: 'update',
      entity: 'users',
      before: { firstName: 'Ada' },
      after: { firstName: 'Ava' },
    });
    expect(new Date(latest!.createdAt).toISOString()).toBe(latest!.createdAt);
    expect(JSON.stringify(result)).not.toContain('secret of b');

    const other = await rows(tokenB);
    expect(other.totalCount).toBe(1);
    expect(other.data[0]).toMatchObject({ entityId: 'pb', after: null });
  });

  it('pages with a stable order', async () => {
    const first = await rows(tokenA, { pageIndex: 1, pageSize: 3 });
    const second = await rows(tokenA, { pageIndex: 2, pageSize: 3 });
    expect(first).toMatchObject({ pageIndex: 1, pageSize: 3, totalCount: 4 });
    expect(first.data).toHaveLength(3);
    expect(second.data.map((row) => row.entityId)).toEqual(['p0']);
  });

  it('sorts by entity, action or time in either direction', async () => {
    const byEntity = await rows(tokenA, { listSort: { field: 'entity', direction: 0 } });
    expect(byEntity.data.map((row) => row.entity)).toEqual([
      'projects',
      'projects',
      'projects',
      'users',
    ]);
    const byAction = await rows(tokenA, { listSort: { field: 'action', direction: 1 } });
    expect(byAction.data[0]!.action).toBe('update');
    const oldest = await rows(tokenA, { listSort: { field: 'createdAt', direction: 0 } });
    expect(oldest.data.map((row) => row.entityId)).toEqual(['p0', 'p1', 'p2', a.adminId]);
    // Direction left out: newest first.
    const defaulted = await rows(tokenA, { listSort: { field: 'createdAt' } as never });
    expect(defaulted.data[0]!.entityId).toBe(a.adminId);
  });

  it('filters by entity, action, actor, entity id and search text', async () => {
    expect((await rows(tokenA, { filter: { entity: 'users' } })).totalCount).toBe(1);
    expect((await rows(tokenA, { filter: { action: 'create' } })).totalCount).toBe(3);
    expect((await rows(tokenA, { filter: { actorId: a.adminId } })).totalCount).toBe(4);
    expect((await rows(tokenA, { filter: { actorId: b.adminId } })).totalCount).toBe(0);
    expect((await rows(tokenA, { filter: { entityId: 'p1' } })).totalCount).toBe(1);
    expect((await rows(tokenA, { filter: { search: 'PROJ' } })).totalCount).toBe(3);
    const byEmail = await rows(tokenA, { filter: { search: a.adminEmail } });
    expect(byEmail.totalCount).toBe(4);
    // LIKE wildcards are searched for literally.
    expect((await rows(tokenA, { filter: { search: '%' } })).totalCount).toBe(0);
  });

  it('keeps entries of an actor who is gone, with a null e-mail', async () => {
    const c = await createTenant(server.database.db);
    const token = (await signIn(server, c.name, c.adminEmail, TEST_PASSWORD)).access_token;
    const goneId = await server.database.db.transaction(async (tx) => {
      const id = await insertUser(tx, {
        tenantId: c.tenantId,
        email: `gone@${c.domain}`,
        firstName: 'Gone',
        lastName: 'Soon',
        roleId: c.memberRoleId,
      });
      await recordChange(tx, {
        tenantId: c.tenantId,
        actorId: id,
        entity: 'projects',
        action: 'create',
        entityId: 'pc',
      });
      return id;
    });
    await server.database.db.delete(users).where(eq(users.id, goneId));
    const result = await rows(token);
    expect(result.data).toEqual([
      expect.objectContaining({ actorId: goneId, actorEmail: null, entityId: 'pc' }),
    ]);
  });

  it('answers 400 with field errors for a bad page request', async () => {
    const { status, body } = await page(tokenA, {
      pageIndex: 0,
      pageSize: 101,
      filter: { action: 'explode', actorId: 'nope', unknown: 1 },
      listSort: { field: 'password' as never, direction: 0 },
    });
    expect(status).toBe(400);
    const errors = (body as { errors: Record<string, string> }).errors;
    expect(Object.keys(errors)).toEqual(
      expect.arrayContaining([
        'pageIndex',
        'pageSize',
        'filter.action',
        'filter.actorId',
        'listSort.field',
      ]),
    );
  });

  it('answers 401 without a token and 403 without audit:read', async () => {
    expect((await page('')).status).toBe(401);
    const email = `reader@${a.domain}`;
    await server.database.db.transaction(async (tx) => {
      const roleId = await insertRole(tx, {
        tenantId: a.tenantId,
        name: 'Reader',
        permissionIds: [a.permissionIds.get('users:read')!],
      });
      await insertUser(tx, {
        tenantId: a.tenantId,
        email,
        firstName: 'Rea',
        lastName: 'Der',
        roleId,
        password: TEST_PASSWORD,
      });
    });
    const { access_token } = await signIn(server, a.name, email, TEST_PASSWORD);
    const { status, body } = await page(access_token);
    expect(status).toBe(403);
    expect(body).toMatchObject({ status: 403, detail: expect.stringContaining('audit:read') });
  });

  it('writes nothing when the change is rolled back with its transaction', async () => {
    const c = await createTenant(server.database.db);
    await expect(
      server.database.db.transaction(async (tx) => {
        await recordChange(tx, {
          tenantId: c.tenantId,
          actorId: c.adminId,
          entity: 'projects',
          action: 'create',
          entityId: 'rolled-back',
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const db = server.database.db;
    expect(await db.select().from(auditLog).where(eq(auditLog.tenantId, c.tenantId))).toEqual([]);
    expect(await db.select().from(events).where(eq(events.tenantId, c.tenantId))).toEqual([]);
  });
});
