import { expect } from 'vitest';
import { API, call, crudCases, junkBody, secretQuery, type Drive } from './secret-route-cases';
import type { Case } from './secret-route-areas';

// A host that never resolves (RFC 6761, answered without DNS): saved, never reached.
const endpoint = {
  url: 'https://hooks.invalid/tenant-console',
  description: 'Logged hooks',
  eventTypes: ['user.*', 'role.created'],
};
const path = `${API}/webhooks`;

/** Records the signing secret an answer carries, so no log line may hold it afterwards. */
function keepSecret(d: Drive, name: string, text: string) {
  const { data } = JSON.parse(text) as { data: { secret: string } };
  expect(data.secret).toMatch(/^whsec_/);
  d.secrets.set(name, data.secret);
  d.secrets.set(`${name} (key)`, data.secret.slice('whsec_'.length));
}

/**
 * The webhooks' routes, driven with every known secret: the signing secrets made at creation
 * and on rotation join the secrets no log line may hold (and the later junk bodies).
 */
export const webhookCases: Case[] = crudCases('webhooks', () => ({
  create: endpoint,
  update: (id) => ({ ...endpoint, id, enabled: false }),
}));
webhookCases.splice(1, 1, [
  `POST ${path}/create`,
  async (d) => {
    const created = await call(d, 'POST', `${path}/create`, { body: endpoint });
    expect(created.status, created.text).toBe(201);
    keepSecret(d, 'webhook signing secret', created.text);
    d.ids.webhooks = (JSON.parse(created.text) as { data: { id: string } }).data.id;
    const junk = await call(d, 'POST', `${path}/create`, { body: junkBody(d) });
    expect(junk.status, junk.text).toBeGreaterThanOrEqual(400);
    expect(junk.status, junk.text).toBeLessThan(500);
  },
]);
webhookCases.splice(
  -1,
  0,
  [
    `POST ${path}/:id/rotate-secret`,
    async (d) => {
      const answer = await call(d, 'POST', `${path}/${d.ids.webhooks}/rotate-secret`);
      expect(answer.status, answer.text).toBe(200);
      keepSecret(d, 'rotated webhook signing secret', answer.text);
      expect((await call(d, 'POST', `${path}/not-an-id/rotate-secret`)).status).toBe(400);
    },
  ],
  [
    `POST ${path}/:id/test`,
    async (d) => {
      const answer = await call(d, 'POST', `${path}/${d.ids.webhooks}/test${secretQuery(d)}`);
      expect(answer.status, answer.text).toBe(202);
      d.ids.webhookDelivery = (JSON.parse(answer.text) as { data: { id: string } }).data.id;
      expect((await call(d, 'POST', `${path}/not-an-id/test`)).status).toBe(400);
    },
  ],
  [
    `POST ${path}/:id/deliveries/page`,
    async (d) => {
      const url = `${path}/${d.ids.webhooks}/deliveries/page${secretQuery(d)}`;
      const answer = await call(d, 'POST', url, { body: { filter: { status: 'pending' } } });
      expect(answer.status, answer.text).toBe(200);
      const junk = await call(d, 'POST', url, { body: junkBody(d) });
      expect(junk.status, junk.text).toBeGreaterThanOrEqual(400);
      expect(junk.status, junk.text).toBeLessThan(500);
    },
  ],
  [
    `POST ${path}/:id/deliveries/:deliveryId/resend`,
    async (d) => {
      const url = `${path}/${d.ids.webhooks}/deliveries/${d.ids.webhookDelivery}/resend`;
      const answer = await call(d, 'POST', url);
      expect(answer.status, answer.text).toBe(202);
      const bad = await call(d, 'POST', `${path}/${d.ids.webhooks}/deliveries/nope/resend`);
      expect(bad.status).toBe(400);
    },
  ],
);
