import { expect } from 'vitest';
import { API, call, crudCases, type Drive } from './secret-route-cases';

type Case = [string, (d: Drive) => Promise<void>];

const confidential = {
  clientId: 'logged-app',
  name: 'Logged app',
  type: 'confidential',
  grantTypes: ['client_credentials'],
};

/**
 * The applications' routes. A rotated client secret joins the secrets no log line may hold
 * (and is sent back in every later junk body); stored-secrets.ts adds the digests.
 */
export const clientCases: Case[] = crudCases('clients', () => ({
  create: confidential,
  update: (id) => ({ ...confidential, id, name: 'Logged app 2' }),
}));
clientCases.splice(-1, 0, [
  `POST ${API}/clients/:id/rotate-secret`,
  async (d) => {
    const answer = await call(d, 'POST', `${API}/clients/${d.ids.clients}/rotate-secret`);
    expect(answer.status, answer.text).toBe(200);
    const { data } = JSON.parse(answer.text) as { data: { clientSecret: string } };
    d.secrets.set('client secret', data.clientSecret);
    expect((await call(d, 'POST', `${API}/clients/not-an-id/rotate-secret`)).status).toBe(400);
  },
]);
