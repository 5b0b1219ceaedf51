import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../db/schema/webhooks';
import { createSignedInTenant, uniqueName } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { applied, call, HEADER, mapped, uploaded } from '../../test/helpers/user-import';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

it('queues one user.created webhook per imported user when the tenant subscribes', async () => {
  const tenant = await createSignedInTenant(server);
  // The host does not resolve: the endpoint is accepted, its deliveries stay queued.
  const endpoint = await call(server, tenant.token, 'POST', '/webhooks/create', {
    url: 'http://receiver.invalid/hook',
    eventTypes: ['user.created'],
  });
  expect(endpoint.status, JSON.stringify(endpoint.data)).toBe(201);
  const d = tenant.domain;
  const job = await uploaded(
    server,
    tenant.token,
    `${HEADER}\nWeb,Hook,web@${d},Member,\nHook,Web,hook@${d},Member,\nBad,Row,bad,Member,\n`,
  );
  await mapped(server, tenant.token, job.id);
  expect((await applied(server, tenant.token, job.id)).progress.created).toBe(2);

  const deliveries = await server.database.db
    .select({ type: webhookDeliveries.eventType, payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.tenantId, tenant.tenantId));
  expect(deliveries.map((delivery) => delivery.type)).toEqual(['user.created', 'user.created']);
  const emails = deliveries.map(
    (delivery) =>
      (JSON.parse(delivery.payload) as { data: { after: { email: string } } }).data.after.email,
  );
  expect(emails.sort()).toEqual([`hook@${d}`, `web@${d}`]);
});

describe('the mapping', () => {
  it('needs every required field, columns of the file, each once, until applied', async () => {
    const { token } = await createSignedInTenant(server);
    const d = `${uniqueName('d')}.example.test`;
    const job = await uploaded(server, token, `${HEADER}\nA,B,a@${d},Member,\n`);
    const put = (mapping: object) =>
      call(server, token, 'PUT', `/user-imports/${job.id}/mapping`, { mapping });
    const missing = await put({ firstName: 0, lastName: 1, email: null, role: 3 });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.data)).toContain('user_import.column_required');
    const outside = await put({ firstName: 0, lastName: 1, email: 7, role: 3 });
    expect(outside.status).toBe(400);
    const twice = await put({ firstName: 0, lastName: 0, email: 2, role: 3 });
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.data)).toContain('user_import.column_twice');
    expect((await call(server, token, 'POST', `/user-imports/${job.id}/apply`)).status).toBe(409);
    await mapped(server, token, job.id);
    await applied(server, token, job.id);
    expect((await put({ firstName: 0, lastName: 1, email: 2, role: 3 })).status).toBe(409);
  });
});
