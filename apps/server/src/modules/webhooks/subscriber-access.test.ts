import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@tc/contract/paging';
import type { Webhook, WebhookDelivery, WebhookWithSecret } from '@tc/contract/webhooks';
import type { BuildAppOptions } from '../../app';
import { api, createSignedInTenant, signIn } from '../../test/fixtures';
import { startTestServer, type TestServer, type TestServerOptions } from '../../test/harness';
import { WebhookReceiver } from '../../test/webhook-receiver';
import { insertRole } from '../roles';
import { insertUser } from '../users';

/**
 * A delivery hands its receiver the entity that changed: subscribing to an event type needs
 * read access to that entity, and the endpoint's owner must still hold it when it is sent.
 */
let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;
const receivers: WebhookReceiver[] = [];

const options: TestServerOptions & Pick<BuildAppOptions, 'webhookWorker'> = {
  webhookWorker: { pollMs: 50, retry: { baseDelayMs: 20, maxDelayMs: 100, windowMs: 3_000 } },
};

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true' }, options);
  tenant = await createSignedInTenant(server);
});
afterAll(async () => {
  await server?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver() {
  const started = await new WebhookReceiver().start();
  receivers.push(started);
  return started;
}

interface Problem {
  code?: string;
  params?: Record<string, string>;
  fields?: Record<string, { code: string }>;
}

async function call<T>(token: string, method: string, path: string, body?: unknown) {
  const response = await api(server, path, token, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as { data: T } & Problem };
}

/** A role of these permissions and a signed-in user holding it. */
async function userWith(permissions: string[]) {
  const roleName = `Hooks ${randomUUID().slice(0, 8)}`;
  const permissionIds = permissions.map((name) => tenant.permissionIds.get(name)!);
  const roleId = await insertRole(server.database.db, {
    tenantId: tenant.tenantId,
    name: roleName,
    permissionIds,
  });
  const email = `hooks.${randomUUID().slice(0, 8)}@${tenant.domain}`;
  const userId = await insertUser(server.database.db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Hook',
    lastName: 'Owner',
    roleId,
    password: tenant.password,
  });
  const token = (await signIn(server, tenant.name, email, tenant.password)).access_token;
  return { token, userId, roleId, roleName };
}

const subscribe = (token: string, url: string, eventTypes: string[]) =>
  call<WebhookWithSecret>(token, 'POST', '/webhooks/create', { url, eventTypes });

async function createUserAsAdmin() {
  const answer = await call<{ id: string }>(tenant.token, 'POST', '/users/create', {
    firstName: 'Watched',
    lastName: 'User',
    email: `watched.${randomUUID().slice(0, 8)}@${tenant.domain}`,
    roleId: tenant.memberRoleId,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data;
}

/** The endpoint's deliveries once none is pending, newest first. */
async function settledDeliveries(endpointId: string, count: number) {
  let rows: WebhookDelivery[] = [];
  await expect
    .poll(
      async () => {
        const page = await call<Page<WebhookDelivery>>(
          tenant.token,
          'POST',
          `/webhooks/${endpointId}/deliveries/page`,
          {},
        );
        rows = page.body.data.data;
        return rows.length === count && rows.every((row) => row.status !== 'pending');
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return rows;
}

describe('subscribing needs read access to what the events carry', () => {
  it('refuses user events to someone with webhooks:write but without users:read', async () => {
    const writer = await userWith(['webhooks:read', 'webhooks:write', 'projects:read']);
    for (const eventTypes of [['user.*'], ['user.created'], ['login.failed'], ['*']]) {
      const answer = await subscribe(writer.token, 'https://example.com/hook', eventTypes);
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body.code).toBe('webhook.event_types_forbidden');
      expect(answer.body.params?.eventTypes).toBe(eventTypes.join(', '));
      expect(answer.body.fields?.eventTypes?.code).toBe('webhook.event_types_forbidden');
    }
    const projects = await subscribe(writer.token, 'https://example.com/hook', ['project.*']);
    expect(projects.status, projects.text).toBe(201);
    expect(projects.body.data.ownerId).toBe(writer.userId);
  });

  it('refuses to let someone without users:read save an endpoint that receives user events', async () => {
    const created = await subscribe(tenant.token, 'https://example.com/hook', ['user.*']);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.ownerId).toBe(tenant.adminId);
    const writer = await userWith(['webhooks:read', 'webhooks:write']);
    const update = {
      id: created.body.data.id,
      url: 'https://example.com/mine',
      eventTypes: ['user.*'],
    };
    const answer = await call<Webhook>(writer.token, 'PUT', '/webhooks/update', update);
    expect(answer.status, answer.text).toBe(403);
    expect(answer.body.code).toBe('webhook.event_types_forbidden');
    const kept = await call<Webhook>(tenant.token, 'GET', `/webhooks/${created.body.data.id}`);
    expect(kept.body.data).toMatchObject({
      url: 'https://example.com/hook',
      ownerId: tenant.adminId,
    });
  });
});

describe('deliveries carry only what the endpoint’s owner may read now', () => {
  it('skips user events once the owner has lost users:read, and says why', async () => {
    const hooks = await receiver();
    const owner = await userWith(['webhooks:read', 'webhooks:write', 'users:read']);
    const created = await subscribe(owner.token, hooks.url, ['user.*']);
    expect(created.status, created.text).toBe(201);
    const endpointId = created.body.data.id;

    await createUserAsAdmin();
    const [sent] = await settledDeliveries(endpointId, 1);
    expect(sent).toMatchObject({ eventType: 'user.created', status: 'succeeded' });
    expect(hooks.of('user.created')).toHaveLength(1);

    const demoted = await call(tenant.token, 'PUT', '/roles/update', {
      id: owner.roleId,
      name: owner.roleName,
      permissionIds: [
        tenant.permissionIds.get('webhooks:read')!,
        tenant.permissionIds.get('webhooks:write')!,
      ],
    });
    expect(demoted.status, demoted.text).toBe(200);
    const hidden = await createUserAsAdmin();

    const [skipped] = await settledDeliveries(endpointId, 2);
    expect(skipped).toMatchObject({
      eventType: 'user.created',
      status: 'skipped',
      skippedFor: 'users:read',
      responseStatus: null,
    });
    expect(skipped!.lastError).toContain('users:read');
    expect(hooks.of('user.created')).toHaveLength(1);
    expect(JSON.stringify(hooks.messages)).not.toContain(hidden.id);
  });

  it('skips entity events of an endpoint whose owner was deleted, but still sends its test event', async () => {
    const hooks = await receiver();
    const owner = await userWith(['webhooks:read', 'webhooks:write', 'roles:read']);
    const created = await subscribe(owner.token, hooks.url, ['role.*']);
    expect(created.status, created.text).toBe(201);
    const endpointId = created.body.data.id;
    const removed = await call(tenant.token, 'POST', `/users/delete/${owner.userId}`);
    expect(removed.status, removed.text).toBe(200);
    const ownerless = await call<Webhook>(tenant.token, 'GET', `/webhooks/${endpointId}`);
    expect(ownerless.body.data.ownerId).toBeNull();

    const role = await call(tenant.token, 'POST', '/roles/create', {
      name: `Watched ${randomUUID().slice(0, 8)}`,
      permissionIds: [],
    });
    expect(role.status, role.text).toBe(201);
    const [skipped] = await settledDeliveries(endpointId, 1);
    expect(skipped).toMatchObject({ status: 'skipped', skippedFor: 'roles:read' });

    await call(tenant.token, 'POST', `/webhooks/${endpointId}/test`);
    const [test] = await settledDeliveries(endpointId, 2);
    expect(test).toMatchObject({ eventType: 'webhook.test', status: 'succeeded' });
    expect(hooks.messages.map((m) => m.type)).toEqual(['webhook.test']);
  });

  it('refuses a resend of a user event to someone without users:read', async () => {
    const hooks = await receiver();
    const created = await subscribe(tenant.token, hooks.url, ['user.*']);
    expect(created.status, created.text).toBe(201);
    const endpointId = created.body.data.id;
    await createUserAsAdmin();
    const [sent] = await settledDeliveries(endpointId, 1);
    const writer = await userWith(['webhooks:read', 'webhooks:write']);
    const resend = await call(
      writer.token,
      'POST',
      `/webhooks/${endpointId}/deliveries/${sent!.id}/resend`,
    );
    expect(resend.status, resend.text).toBe(403);
    expect(resend.body.code).toBe('webhook.event_types_forbidden');
    const byAdmin = await call(
      tenant.token,
      'POST',
      `/webhooks/${endpointId}/deliveries/${sent!.id}/resend`,
    );
    expect(byAdmin.status, byAdmin.text).toBe(202);
  });
});
