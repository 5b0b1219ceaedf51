import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@tc/contract/paging';
import type { WebhookDelivery, WebhookWithSecret } from '@tc/contract/webhooks';
import type { BuildAppOptions } from '../../app';
import { api, createSignedInTenant, signIn, tokenRequest } from '../../test/fixtures';
import { startTestServer, type TestServer, type TestServerOptions } from '../../test/harness';
import { WebhookReceiver } from '../../test/webhook-receiver';
import { insertUser } from '../users';

let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;
const receivers: WebhookReceiver[] = [];

// Fast retries and a short window, so giving up takes seconds instead of a day.
const options: TestServerOptions & Pick<BuildAppOptions, 'webhookWorker'> = {
  webhookWorker: {
    pollMs: 50,
    retry: { baseDelayMs: 20, maxDelayMs: 100, windowMs: 3_000, timeoutMs: 5_000 },
  },
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

async function call<T>(method: string, path: string, body?: unknown, token = tenant.token) {
  const response = await api(server, path, token, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, data: (JSON.parse(text) as { data: T }).data };
}

async function endpoint(url: string, eventTypes: string[] = ['*']) {
  const created = await call<WebhookWithSecret>('POST', '/webhooks/create', { url, eventTypes });
  expect(created.status, created.text).toBe(201);
  return created.data;
}

async function createUser() {
  const answer = await call<{ id: string }>('POST', '/users/create', {
    firstName: 'Hook',
    lastName: 'Test',
    email: `hook.${randomUUID().slice(0, 8)}@${tenant.domain}`,
    roleId: tenant.memberRoleId,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.data;
}

const deliveries = async (endpointId: string) =>
  (await call<Page<WebhookDelivery>>('POST', `/webhooks/${endpointId}/deliveries/page`, {})).data
    .data;

/** Waits until the endpoint's newest delivery has left the pending state. */
async function settled(endpointId: string): Promise<WebhookDelivery> {
  let newest: WebhookDelivery | undefined;
  await expect
    .poll(
      async () => {
        newest = (await deliveries(endpointId))[0];
        return newest?.status;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/succeeded|failed/);
  return newest!;
}

describe('webhook deliveries', () => {
  it('sends one signed user.created for a user created through the API', async () => {
    const hooks = await receiver();
    const { id, secret } = await endpoint(hooks.url, ['user.*']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const user = await createUser();
    const delivery = await settled(id);
    expect(delivery).toMatchObject({
      eventType: 'user.created',
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
    });
    const created = hooks.of('user.created');
    expect(created).toHaveLength(1);
    expect(created[0]!.id).toBe(delivery.messageId);
    expect(WebhookReceiver.verifies(secret, created[0]!)).toBe(true);
    expect(created[0]!.data).toMatchObject({ id: user.id, after: { id: user.id } });
    expect(created[0]!.body).not.toMatch(/hash|password/i);
    expect(JSON.parse(created[0]!.body)).toMatchObject({
      type: 'user.created',
      timestamp: expect.any(String),
    });
  });

  it('sends only the event types an endpoint subscribed to', async () => {
    const users = await receiver();
    const roles = await receiver();
    const forUsers = await endpoint(users.url, ['user.created']);
    const forRoles = await endpoint(roles.url, ['role.*']);
    await createUser();
    const role = await call<{ id: string }>('POST', '/roles/create', {
      name: `Hooked ${randomUUID().slice(0, 8)}`,
      permissionIds: [],
    });
    expect(role.status, role.text).toBe(201);
    expect((await settled(forUsers.id)).eventType).toBe('user.created');
    expect((await settled(forRoles.id)).eventType).toBe('role.created');
    expect(users.messages.map((m) => m.type)).toEqual(['user.created']);
    expect(roles.messages.map((m) => m.type)).toEqual(['role.created']);
  });

  it('retries after 500s with the same message, then succeeds', async () => {
    const hooks = await receiver();
    hooks.answer = (_message, index) => (index < 2 ? 500 : 204);
    const { id, secret } = await endpoint(hooks.url);
    const queued = await call<WebhookDelivery>('POST', `/webhooks/${id}/test`);
    expect(queued.status).toBe(202);
    expect(queued.data).toMatchObject({ status: 'pending', eventType: 'webhook.test' });
    const delivery = await settled(id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 204 });
    expect(hooks.messages).toHaveLength(3);
    expect(new Set(hooks.messages.map((m) => m.id))).toEqual(new Set([delivery.messageId]));
    expect(hooks.messages.every((m) => WebhookReceiver.verifies(secret, m))).toBe(true);
    expect(hooks.messages[0]!.data).toMatchObject({ id, url: hooks.url });
  });

  it('gives up after the retry window as failed, and a resend delivers the same message', async () => {
    const hooks = await receiver();
    hooks.answer = () => 503;
    const { id } = await endpoint(hooks.url);
    await call('POST', `/webhooks/${id}/test`);
    const failed = await settled(id);
    expect(failed).toMatchObject({ status: 'failed', responseStatus: 503 });
    expect(failed.attempts).toBeGreaterThan(1);
    expect(failed.lastError).toContain('503');
    const attempts = hooks.messages.length;
    expect(attempts).toBe(failed.attempts);

    hooks.answer = () => 200;
    const resent = await call<WebhookDelivery>(
      'POST',
      `/webhooks/${id}/deliveries/${failed.id}/resend`,
    );
    expect(resent.status, resent.text).toBe(202);
    expect(resent.data.id).not.toBe(failed.id);
    const delivered = await settled(id);
    expect(delivered).toMatchObject({ id: resent.data.id, status: 'succeeded', attempts: 1 });
    expect(delivered.messageId).toBe(failed.messageId);
    expect(hooks.messages).toHaveLength(attempts + 1);
    // The failed one stays in the log beside it.
    expect((await deliveries(id)).map((d) => d.status)).toEqual(['succeeded', 'failed']);
  });

  it('shows the secret once; rotation makes the old one sign nothing more', async () => {
    const hooks = await receiver();
    const { id, secret } = await endpoint(hooks.url);
    const got = await call('GET', `/webhooks/${id}`);
    const listed = await call('POST', '/webhooks/page', {});
    const updated = await call('PUT', '/webhooks/update', {
      id,
      url: hooks.url,
      eventTypes: ['*'],
      description: 'Renamed',
      enabled: true,
    });
    expect(updated.status, updated.text).toBe(200);
    for (const answer of [got, listed, updated]) {
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain('whsec_');
    }
    const rotated = await call<{ secret: string }>('POST', `/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(secret);
    await call('POST', `/webhooks/${id}/test`);
    await settled(id);
    const message = hooks.of('webhook.test')[0]!;
    expect(WebhookReceiver.verifies(rotated.data.secret, message)).toBe(true);
    expect(WebhookReceiver.verifies(secret, message)).toBe(false);
  });

  it('sends nothing to a disabled endpoint, and deletes its log with it', async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url);
    const off = await call('PUT', '/webhooks/update', {
      id,
      url: hooks.url,
      eventTypes: ['*'],
      enabled: false,
    });
    expect(off.status, off.text).toBe(200);
    await createUser();
    expect(await deliveries(id)).toEqual([]);
    const removed = await call('POST', `/webhooks/delete/${id}`);
    expect(removed.status).toBe(200);
    expect((await call('GET', `/webhooks/${id}`)).status).toBe(404);
    expect((await call('POST', `/webhooks/${id}/deliveries/page`, {})).status).toBe(404);
  });

  it('sends login.failed for a refused password and session.revoked for ended sessions', async () => {
    const hooks = await receiver();
    const { id, secret } = await endpoint(hooks.url, ['login.failed', 'session.revoked']);
    const wrong = 'Not-the-password-7!';
    const refused = await tokenRequest(server, tenant.name, {
      client_id: 'react-client',
      grant_type: 'password',
      username: tenant.adminEmail,
      password: wrong,
    });
    expect(refused.status).toBe(401);
    expect((await settled(id)).eventType).toBe('login.failed');
    const failed = hooks.of('login.failed')[0]!;
    expect(WebhookReceiver.verifies(secret, failed)).toBe(true);
    expect(failed.data).toEqual({ id: tenant.adminId, email: tenant.adminEmail, locked: false });
    expect(failed.body).not.toContain(wrong);

    const email = `leaving.${randomUUID().slice(0, 8)}@${tenant.domain}`;
    const userId = await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'Leaving',
      lastName: 'Soon',
      roleId: tenant.memberRoleId,
      password: tenant.password,
    });
    await signIn(server, tenant.name, email, tenant.password);
    const ended = await call('POST', `/users/${userId}/sessions/revoke-all`);
    expect(ended.status, ended.text).toBe(200);
    await expect.poll(() => hooks.of('session.revoked').length, { timeout: 20_000 }).toBe(1);
    expect(hooks.of('session.revoked')[0]!.data).toMatchObject({
      id: userId,
      after: { endedSessions: 1 },
    });
  });

  it('does not let a receiver that never answers hold up another endpoint', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const stuck = await endpoint(`http://127.0.0.1:${port}/hook`);
      const hooks = await receiver();
      const quick = await endpoint(hooks.url);
      await call('POST', `/webhooks/${stuck.id}/test`);
      // The stuck delivery is under way (claimed, waiting for an answer) before the other.
      await expect.poll(async () => (await deliveries(stuck.id))[0]?.attempts).toBe(1);
      await call('POST', `/webhooks/${quick.id}/test`);
      expect((await settled(quick.id)).status).toBe('succeeded');
      // Still its first attempt, with no outcome yet: it did not have to end first.
      expect((await deliveries(stuck.id))[0]).toMatchObject({ attempts: 1, lastError: null });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
