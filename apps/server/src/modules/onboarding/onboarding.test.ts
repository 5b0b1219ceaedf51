import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Onboarding } from '@tc/contract/onboarding';
import { auditLog } from '../../db/schema/audit';
import { callApi, createSignedInTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';

type Tenant = Awaited<ReturnType<typeof createSignedInTenant>>;

let server: TestServer;

const call = async (tenant: Tenant, method: string, path = '/onboarding', body?: unknown) => {
  const { status, body: json } = await callApi<Onboarding>(
    server,
    tenant.token,
    method,
    path,
    body,
  );
  return { status, data: json.data as unknown as Onboarding, errors: json.errors };
};
const progress = async (tenant: Tenant) => {
  const { status, data } = await call(tenant, 'GET');
  expect(status).toBe(200);
  return data;
};
const save = (tenant: Tenant, body: Record<string, unknown>) =>
  call(tenant, 'PUT', '/onboarding', body);

async function createRole(tenant: Tenant, name: string) {
  const { status, body } = await callApi<{ id: string }>(
    server,
    tenant.token,
    'POST',
    '/roles/create',
    {
      name,
      status: 'active',
    },
  );
  expect(status).toBe(201);
  return body.data.id;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('onboarding progress', () => {
  it('opens by itself for the administrator of a new tenant', async () => {
    const tenant = await createSignedInTenant(server);
    expect(await progress(tenant)).toEqual({
      step: 'welcome',
      completed: false,
      completedAt: null,
      skipped: false,
      skippedAt: null,
      shouldOpen: true,
      roleId: null,
      permissionId: null,
      userId: null,
    });
  });

  it('keeps the step and what was created, so a reload resumes there', async () => {
    const tenant = await createSignedInTenant(server);
    const roleId = await createRole(tenant, 'Pilot');
    expect((await save(tenant, { step: 'second-step', roleId })).status).toBe(200);
    const permission = await callApi<{ id: string }>(
      server,
      tenant.token,
      'POST',
      '/permissions/create',
      {
        name: 'runway:read',
        roleIds: [roleId],
      },
    );
    const permissionId = permission.body.data.id;
    // Ids left out keep their value.
    await save(tenant, { step: 'third-step', permissionId });
    expect(await progress(tenant)).toMatchObject({
      step: 'third-step',
      roleId,
      permissionId,
      userId: null,
      completed: false,
      shouldOpen: true,
    });
    // null forgets an id.
    await save(tenant, { step: 'first-step', roleId: null });
    expect(await progress(tenant)).toMatchObject({
      step: 'first-step',
      roleId: null,
      permissionId,
    });
  });

  it('records completion once, audited, and keeps it when the wizard is reopened', async () => {
    const tenant = await createSignedInTenant(server);
    const { data } = await save(tenant, { step: 'complete', userId: tenant.adminId });
    expect(data).toMatchObject({ step: 'complete', completed: true, shouldOpen: false });
    expect(new Date(data.completedAt!).toISOString()).toBe(data.completedAt);

    await save(tenant, { step: 'first-step' });
    await save(tenant, { step: 'complete' });
    expect(await progress(tenant)).toMatchObject({
      step: 'complete',
      completed: true,
      completedAt: data.completedAt,
      shouldOpen: false,
    });
    const entries = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, tenant.tenantId), eq(auditLog.entity, 'onboarding')));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: tenant.adminId, entityId: tenant.tenantId });
  });

  it('can be skipped, and still be finished later', async () => {
    const tenant = await createSignedInTenant(server);
    const { status, data } = await call(tenant, 'POST', '/onboarding/skip');
    expect(status).toBe(200);
    expect(data).toMatchObject({ skipped: true, completed: false, shouldOpen: false });
    await save(tenant, { step: 'second-step' });
    expect(await progress(tenant)).toMatchObject({ step: 'second-step', shouldOpen: false });
    expect((await save(tenant, { step: 'complete' })).data.completed).toBe(true);
  });

  it("keeps each tenant's progress apart and refuses another tenant's ids", async () => {
    const a = await createSignedInTenant(server);
    const b = await createSignedInTenant(server);
    await save(a, { step: 'complete' });
    expect(await progress(b)).toMatchObject({ step: 'welcome', completed: false });

    const foreignRole = await createRole(a, 'Foreign');
    const role = await save(b, { step: 'second-step', roleId: foreignRole });
    expect(role.status).toBe(400);
    expect(role.errors).toHaveProperty('roleId');
    const user = await save(b, { step: 'complete', userId: a.adminId });
    expect(user.status).toBe(400);
    expect(user.errors).toHaveProperty('userId');
    const permission = await save(b, {
      step: 'third-step',
      permissionId: a.permissionIds.get('users:read'),
    });
    expect(permission.status).toBe(400);
    expect(permission.errors).toHaveProperty('permissionId');
    expect(await progress(b)).toMatchObject({ step: 'welcome', roleId: null, userId: null });
  });

  it('answers 400 for an unknown step or a malformed id', async () => {
    const tenant = await createSignedInTenant(server);
    const { status, errors } = await save(tenant, { step: 'fourth-step', roleId: 'nope' });
    expect(status).toBe(400);
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['step', 'roleId']));
  });
});
