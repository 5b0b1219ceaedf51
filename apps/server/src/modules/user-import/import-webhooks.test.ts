import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhookDeliveries } from '../../db/schema/webhooks';
import { createSignedInTenant } from '../../test/fixtures';
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
