import fc from 'fast-check';
import { CLIENT_SORT_FIELDS, CLIENT_TYPES, GRANT_TYPES } from '@tc/contract/clients';
import { idFrom, typedText } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { bearer, crudGenerators, pageRequest } from './generators-entities';
import { fuzzRequest, pathSegment } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';

/** Addresses near the rules' edges: loopback, app schemes, fragments, wildcards, credentials. */
const address = fc.oneof(
  fc.constantFrom(
    'https://app.example.test/callback',
    'http://localhost:3000/cb',
    'http://[::1]/cb',
    'com.example.app:/callback',
    'https://app.example.test',
    'https://*.example.test/cb',
    'https://app.example.test/#x',
    'https://u:p@app.example.test/',
    'javascript:alert(1)',
    'http://app.example.test',
  ),
  fc.webUrl({ withFragments: true, withQueryParameters: true }),
  typedText(40),
);
const addresses = fc.array(address, { maxLength: 4 });
const trustFlag = fc.oneof(fc.boolean(), fc.constantFrom('true', 1, null), typedText(5));

/** The applications' routes (the five, and the rotation of a secret). */
export function clientGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const roleIds = [world.tenant.memberRoleId, ...world.roles.kept];
  const crud = crudGenerators({
    entity: 'clients',
    token: world.adminToken,
    page: pageRequest(CLIENT_SORT_FIELDS, { type: fc.constantFrom(...CLIENT_TYPES) }),
    create: fc.record(
      {
        clientId: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9._~-]{0,30}$/), typedText(30)),
        name: typedText(40),
        type: fc.constantFrom(...CLIENT_TYPES),
        redirectUris: addresses,
        postLogoutRedirectUris: addresses,
        webOrigins: addresses,
        grantTypes: fc.subarray([...GRANT_TYPES], { minLength: 1 }),
        serviceRoleIds: fc.subarray(roleIds),
        idTokenSignedResponseAlg: fc.constantFrom('RS256', 'ES256'),
        // Yes/no of trust, and what is not one (the field is named in the 400).
        firstParty: trustFlag,
        consoleApiAccess: trustFlag,
      },
      { requiredKeys: ['clientId', 'name', 'type', 'grantTypes'] },
    ),
    pool: world.clients,
    untouchable: [],
  });
  return {
    ...crud,
    [`POST ${API}/clients/:id/rotate-secret`]: fuzzRequest({
      method: 'POST',
      path: pathSegment(idFrom(world.clients.kept)).map(
        (id) => `${API}/clients/${id}/rotate-secret`,
      ),
      headers: bearer(world.adminToken),
    }),
  };
}
