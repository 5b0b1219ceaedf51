import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@tc/contract/paging';
import type { WebhookDelivery, WebhookWithSecret } from '@tc/contract/webhooks';
import type { BuildAppOptions } from '../../app';
import { webhookEndpoints } from '../../db/schema/webhooks';
import { api, createSignedInTenant, signIn } from '../../test/fixtures';
import { startTestServer, type TestServer, type TestServerOptions } from '../../test/harness';
import { leakedSecrets, LogCapture } from '../../test/log-capture';
import { WebhookReceiver } from '../../test/webhook-receiver';
import { insertRole } from '../roles';
import { insertUser } from '../users';

/** A server that refuses private addresses (the default), its log captured. */
let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;
let other: Awaited<ReturnType<typeof createSignedInTenant>>;
let reader: string;
let hooks: WebhookReceiver;
const capture = new LogCapture();
const secrets = new Map<string, string>();

const options: TestServerOptions & Pick<BuildAppOptions, 'webhookWorker'> = {
  logStream: capture,
  webhookWorker: { pollMs: 50, retry: { baseDelayMs: 20, maxDelayMs: 50, windowMs: 300 } },
};

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'trace' }, options);
  tenant = await createSignedInTenant(server);
  other = await createSignedInTenant(server);
  hooks = await new WebhookReceiver().start();
  const roleId = await insertRole(server.database.db, {
    tenantId: tenant.tenantId,
    name: `Hook readers ${randomUUID().slice(0, 8)}`,
    permissionIds: [tenant.permissionIds.get('webhooks:read')!],
  });
  const email = `reader.${randomUUID().slice(0, 8)}@${tenant.domain}`;
  await insertUser(server.database.db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Hook',
    lastName: 'Reader',
    roleId,
    password: tenant.password,
  });
  reader = (await signIn(server, tenant.name, email, tenant.password)).access_token;
});
afterAll(async () => {
  await server?.close();
  await hooks?.close();
});

async function call<T>(token: string, method: string, path: string, body?: unknown) {
  const response = await api(server, path, token, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as { data: T } & Problem };
}
interface Problem {
  code?: string;
  fields?: Record<string, { code: string }>;
}

const create = (token: string, url: string) =>
  call<WebhookWithSecret>(token, 'POST', '/webhooks/create', { url, eventTypes: ['*'] });

/** An endpoint whose host does not resolve: accepted, since no address of it is private. */
async function unresolvedEndpoint() {
  const created = await create(tenant.token, `http://receiver.invalid:${hooks.port}/hook`);
  expect(created.status, created.text).toBe(201);
  secrets.set(`secret ${created.body.data.id}`, created.body.data.secret);
  return created.body.data;
}

describe('webhook targets', () => {
  it.each([
    ['http://user:pass@example.com/hook', 'webhook.url_credentials'],
    ['http://token@example.com/hook', 'webhook.url_credentials'],
    ['ftp://example.com/hook', 'webhook.url_scheme'],
    ['file:///etc/passwd', 'webhook.url_scheme'],
    ['javascript:alert(1)', 'webhook.url_scheme'],
    ['not a url', 'webhook.url_invalid'],
    ['http://127.0.0.1/hook', 'webhook.url_private'],
    ['http://127.1.2.3:8080/hook', 'webhook.url_private'],
    ['http://[::1]/hook', 'webhook.url_private'],
    ['http://[::ffff:127.0.0.1]/hook', 'webhook.url_private'],
    ['http://169.254.169.254/latest/meta-data', 'webhook.url_private'],
    ['http://[fd00:ec2::254]/', 'webhook.url_private'],
    ['http://10.1.2.3/hook', 'webhook.url_private'],
    ['http://192.168.0.1/hook', 'webhook.url_private'],
    ['http://100.64.0.1/hook', 'webhook.url_private'],
    ['http://0.0.0.0/hook', 'webhook.url_private'],
    ['http://localhost/hook', 'webhook.url_private'],
    // IPv4 in other notations, which URL parsing turns into 127.0.0.1 and 10.0.0.1.
    ['http://2130706433/hook', 'webhook.url_private'],
    ['http://0x7f.1/hook', 'webhook.url_private'],
    ['http://017700000001/hook', 'webhook.url_private'],
    ['http://10.1/hook', 'webhook.url_private'],
    // Loopback and private addresses carried inside IPv6.
    ['http://[::7f00:1]/hook', 'webhook.url_private'],
    ['http://[::127.0.0.1]/hook', 'webhook.url_private'],
    ['http://[::ffff:0:127.0.0.1]/hook', 'webhook.url_private'],
    ['http://[64:ff9b::127.0.0.1]/hook', 'webhook.url_private'],
    ['http://[64:ff9b:1::7f00:1]/hook', 'webhook.url_private'],
    ['http://[2002:7f00:1::1]/hook', 'webhook.url_private'],
    ['http://[2002:a00:1::1]/hook', 'webhook.url_private'],
  ])('refuses %s with 400 on the url field', async (url, code) => {
    const answer = await create(tenant.token, url);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.fields?.url?.code).toBe(code);
  });

  it('refuses the IPv4-compatible form of loopback at creation, with a receiver listening there', async () => {
    const url = `http://[::7f00:1]:${hooks.port}/hook`;
    const answer = await create(tenant.token, url);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.fields?.url?.code).toBe('webhook.url_private');
    const listed = await call<Page<{ url: string }>>(tenant.token, 'POST', '/webhooks/page', {});
    expect(listed.body.data.data.map((w) => w.url)).not.toContain(url);
    expect(hooks.messages).toEqual([]);
  });

  it.each(['localhost', '[::7f00:1]', '[::ffff:0:7f00:1]', '[64:ff9b:1::7f00:1]'])(
    'refuses %s at delivery time too, when the saved URL came to lead there',
    async (host) => {
      const { id } = await unresolvedEndpoint();
      // As if its DNS record changed after it was saved.
      await server.database.db
        .update(webhookEndpoints)
        .set({ url: `http://${host}:${hooks.port}/hook` })
        .where(eq(webhookEndpoints.id, id));
      await call(tenant.token, 'POST', `/webhooks/${id}/test`);
      let delivery: WebhookDelivery | undefined;
      await expect
        .poll(
          async () => {
            const page = await call<Page<WebhookDelivery>>(
              tenant.token,
              'POST',
              `/webhooks/${id}/deliveries/page`,
              {},
            );
            delivery = page.body.data.data[0];
            return delivery?.status;
          },
          { timeout: 20_000, interval: 50 },
        )
        .toBe('failed');
      expect(delivery!.lastError).toContain('not allowed');
      expect(delivery!.responseStatus).toBeNull();
      expect(hooks.messages).toEqual([]);
    },
  );
});

describe('webhook permissions', () => {
  it('lets webhooks:read read, and nothing more', async () => {
    const { id } = await unresolvedEndpoint();
    expect((await call(reader, 'POST', '/webhooks/page', {})).status).toBe(200);
    expect((await call(reader, 'GET', `/webhooks/${id}`)).status).toBe(200);
    expect((await call(reader, 'POST', `/webhooks/${id}/deliveries/page`, {})).status).toBe(200);
    const update = { id, url: 'https://example.com/x', eventTypes: ['*'] };
    const refused = [
      await create(reader, 'https://example.com/x'),
      await call(reader, 'PUT', '/webhooks/update', update),
      await call(reader, 'POST', `/webhooks/delete/${id}`),
      await call(reader, 'POST', `/webhooks/${id}/rotate-secret`),
      await call(reader, 'POST', `/webhooks/${id}/test`),
      await call(reader, 'POST', `/webhooks/${id}/deliveries/${randomUUID()}/resend`),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
  });

  it('answers 404 for another tenant’s endpoint and delivery, exactly like a missing one', async () => {
    const { id } = await unresolvedEndpoint();
    const test = await call<WebhookDelivery>(tenant.token, 'POST', `/webhooks/${id}/test`);
    const deliveryId = test.body.data.id;
    const foreign = [
      await call(other.token, 'GET', `/webhooks/${id}`),
      await call(other.token, 'PUT', '/webhooks/update', {
        id,
        url: 'https://example.com/x',
        eventTypes: ['*'],
      }),
      await call(other.token, 'POST', `/webhooks/delete/${id}`),
      await call(other.token, 'POST', `/webhooks/${id}/rotate-secret`),
      await call(other.token, 'POST', `/webhooks/${id}/test`),
      await call(other.token, 'POST', `/webhooks/${id}/deliveries/page`, {}),
      await call(other.token, 'POST', `/webhooks/${id}/deliveries/${deliveryId}/resend`),
    ];
    expect(foreign.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    const listed = await call<Page<{ id: string }>>(other.token, 'POST', '/webhooks/page', {});
    expect(listed.body.data.data.map((w) => w.id)).not.toContain(id);
    // Still there, untouched, for its own tenant.
    expect((await call(tenant.token, 'GET', `/webhooks/${id}`)).status).toBe(200);
  });

  it('audits endpoint changes, without the secret', async () => {
    const { id } = await unresolvedEndpoint();
    const rotated = await call<{ secret: string }>(
      tenant.token,
      'POST',
      `/webhooks/${id}/rotate-secret`,
    );
    secrets.set(`rotated ${id}`, rotated.body.data.secret);
    const audit = await call<Page<{ entity: string; action: string; entityId: string }>>(
      tenant.token,
      'POST',
      '/audit/page',
      { filter: { search: id } },
    );
    expect(audit.status, audit.text).toBe(200);
    const actions = audit.body.data.data.filter((e) => e.entityId === id).map((e) => e.action);
    expect(actions.sort()).toEqual(['create', 'update']);
    expect(audit.text).not.toContain('whsec_');
  });
});

describe('webhook secrets', () => {
  it('never appear in a log line', async () => {
    // Every secret made above, and the deliveries signed with them, went through the log.
    expect(secrets.size).toBeGreaterThan(3);
    const keys = new Map(
      [...secrets].map(([name, secret]) => [`${name} key`, secret.slice('whsec_'.length)]),
    );
    expect(capture.lines.length).toBeGreaterThan(0);
    expect(leakedSecrets(capture.text, secrets)).toEqual([]);
    expect(leakedSecrets(capture.text, keys)).toEqual([]);
  });
});
