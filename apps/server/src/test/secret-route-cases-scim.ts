import { expect } from 'vitest';
import { scimApplication } from './helpers/scim';
import { API, call, junkBody, secretQuery, type Drive } from './secret-route-cases';
import type { Case } from './secret-route-areas';

const SCIM = '/scim/v2/:realm';

/** The application's SCIM token, made once and joined to the secrets no log line may hold. */
async function scimToken(d: Drive): Promise<string> {
  const known = d.secrets.get('scim token');
  if (known) return known;
  const token = await scimApplication(d.server, d.tenant, 'logged-scim', [d.tenant.adminRoleId]);
  d.secrets.set('scim token', token);
  return token;
}

/** A request with the SCIM token, the secrets in the query, and one with junk carrying them. */
async function drive(d: Drive, method: string, path: string, body?: unknown) {
  const token = await scimToken(d);
  const url = path.replace(':realm', d.tenant.name);
  const answer = await call(d, method, url, { token, body });
  expect(answer.status, answer.text).toBeLessThan(500);
  // The secrets as parameters of their own, beside any the route's own query has.
  const secrets = url.includes('?') ? `&${secretQuery(d).slice(1)}` : secretQuery(d);
  const junk = await call(d, method, `${url}${secrets}`, { token, body: junkBody(d) });
  expect(junk.status, junk.text).toBeLessThan(500);
  return answer;
}

const user = (email: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: email,
  name: { givenName: 'Logged', familyName: 'User' },
});
const patch = (value: unknown) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op: 'replace', value }],
});

/** The SCIM routes, driven with every known secret, and the tenant's provisioning settings. */
export const scimCases: Case[] = [
  [
    `GET ${SCIM}/ServiceProviderConfig`,
    (d) => drive(d, 'GET', `${SCIM}/ServiceProviderConfig`).then(),
  ],
  [`GET ${SCIM}/ResourceTypes`, (d) => drive(d, 'GET', `${SCIM}/ResourceTypes`).then()],
  [`GET ${SCIM}/ResourceTypes/:id`, (d) => drive(d, 'GET', `${SCIM}/ResourceTypes/User`).then()],
  [`GET ${SCIM}/Schemas`, (d) => drive(d, 'GET', `${SCIM}/Schemas`).then()],
  [
    `GET ${SCIM}/Schemas/:id`,
    (d) => drive(d, 'GET', `${SCIM}/Schemas/urn:ietf:params:scim:schemas:core:2.0:User`).then(),
  ],
  [
    `POST ${SCIM}/Users`,
    async (d) => {
      const answer = await drive(d, 'POST', `${SCIM}/Users`, user('logged-scim@example.org'));
      expect(answer.status, answer.text).toBe(201);
      d.ids.scimUser = (JSON.parse(answer.text) as { id: string }).id;
    },
  ],
  [
    `GET ${SCIM}/Users`,
    (d) => drive(d, 'GET', `${SCIM}/Users?filter=userName%20sw%20%22l%22`).then(),
  ],
  [
    `POST ${SCIM}/Users/.search`,
    (d) => drive(d, 'POST', `${SCIM}/Users/.search`, { filter: 'active eq true' }).then(),
  ],
  [`GET ${SCIM}/Users/:id`, (d) => drive(d, 'GET', `${SCIM}/Users/${d.ids.scimUser}`).then()],
  [
    `PUT ${SCIM}/Users/:id`,
    (d) =>
      drive(d, 'PUT', `${SCIM}/Users/${d.ids.scimUser}`, user('logged-scim2@example.org')).then(),
  ],
  [
    `PATCH ${SCIM}/Users/:id`,
    (d) => drive(d, 'PATCH', `${SCIM}/Users/${d.ids.scimUser}`, patch({ active: true })).then(),
  ],
  [
    `POST ${SCIM}/Groups`,
    async (d) => {
      const answer = await drive(d, 'POST', `${SCIM}/Groups`, { displayName: 'Logged group' });
      expect(answer.status, answer.text).toBe(201);
      d.ids.scimGroup = (JSON.parse(answer.text) as { id: string }).id;
    },
  ],
  [`GET ${SCIM}/Groups`, (d) => drive(d, 'GET', `${SCIM}/Groups`).then()],
  [`POST ${SCIM}/Groups/.search`, (d) => drive(d, 'POST', `${SCIM}/Groups/.search`, {}).then()],
  [`GET ${SCIM}/Groups/:id`, (d) => drive(d, 'GET', `${SCIM}/Groups/${d.ids.scimGroup}`).then()],
  [
    `PUT ${SCIM}/Groups/:id`,
    (d) =>
      drive(d, 'PUT', `${SCIM}/Groups/${d.ids.scimGroup}`, {
        displayName: 'Logged group 2',
      }).then(),
  ],
  [
    `PATCH ${SCIM}/Groups/:id`,
    (d) =>
      drive(
        d,
        'PATCH',
        `${SCIM}/Groups/${d.ids.scimGroup}`,
        patch({ displayName: 'Logged group 3' }),
      ).then(),
  ],
  [
    `DELETE ${SCIM}/Groups/:id`,
    (d) => drive(d, 'DELETE', `${SCIM}/Groups/${d.ids.scimGroup}`).then(),
  ],
  [`DELETE ${SCIM}/Users/:id`, (d) => drive(d, 'DELETE', `${SCIM}/Users/${d.ids.scimUser}`).then()],
  [
    `GET ${API}/settings/provisioning`,
    async (d) => {
      const answer = await call(d, 'GET', `${API}/settings/provisioning`);
      expect(answer.status, answer.text).toBe(200);
    },
  ],
  [
    `PUT ${API}/settings/provisioning`,
    async (d) => {
      const body = { scimNewUsers: 'invite', scimDelete: 'deactivate' };
      const answer = await call(d, 'PUT', `${API}/settings/provisioning`, { body });
      expect(answer.status, answer.text).toBe(200);
      expect(
        (await call(d, 'PUT', `${API}/settings/provisioning`, { body: junkBody(d) })).status,
      ).toBe(400);
    },
  ],
];
