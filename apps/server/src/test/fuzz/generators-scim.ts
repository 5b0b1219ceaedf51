import fc from 'fast-check';
import { SCIM_DELETE_MODES, SCIM_NEW_USER_MODES } from '@tc/contract/provisioning';
import { anyText, idFrom } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { fuzzRequest, headers, jsonBody, pathSegment, query } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';
const SCIM = '/scim/v2/:realm';

/**
 * SCIM: every route of /scim/v2/<realm>, with the admin's console token (which SCIM refuses),
 * no token, or junk, and near-valid users, groups, PatchOps and list parameters; and the
 * tenant's provisioning settings. Whatever comes, the answer is a SCIM 4xx, never a 5xx.
 */
export function scimGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const realm = pathSegment(fc.constant(world.tenant.name));
  const auth = fc.oneof(
    headers({ authorization: `Bearer ${world.adminToken}` }),
    headers({ authorization: 'Bearer not-a-token' }),
    headers({}),
  );
  const at = (tail: string) => realm.map((name) => `/scim/v2/${name}${tail}`);
  const withId = (kind: 'Users' | 'Groups', ids: string[]) =>
    fc.tuple(realm, pathSegment(idFrom(ids))).map(([name, id]) => `/scim/v2/${name}/${kind}/${id}`);
  const listQuery = query(
    ['filter', 'sortBy', 'sortOrder', 'startIndex', 'count', 'attributes', 'excludedAttributes'],
    fc.oneof(
      anyText,
      fc.constantFrom('userName eq "a@b.c"', 'emails[type eq "work"].value co "@"', '((('),
    ),
  );
  const user = fc.record({
    schemas: fc.constant(['urn:ietf:params:scim:schemas:core:2.0:User']),
    userName: fc.oneof(fc.emailAddress(), anyText),
    name: fc.record({ givenName: anyText, familyName: anyText }),
    active: fc.oneof(fc.boolean(), fc.constantFrom('True', 'False'), anyText),
    externalId: fc.option(anyText),
  });
  const group = fc.record({
    displayName: anyText,
    members: fc.array(fc.record({ value: idFrom(world.users.kept) }), { maxLength: 3 }),
  });
  const patch = fc.record({
    schemas: fc.constant(['urn:ietf:params:scim:api:messages:2.0:PatchOp']),
    Operations: fc.array(
      fc.record({
        op: fc.constantFrom('add', 'Replace', 'remove', 'move'),
        path: fc.option(
          fc.oneof(
            anyText,
            fc.constantFrom('active', 'name.givenName', 'members', 'emails[type eq "work"].value'),
          ),
          { nil: undefined },
        ),
        value: fc.oneof(anyText, fc.boolean(), fc.record({ active: fc.boolean() })),
      }),
      { maxLength: 3 },
    ),
  });
  const routes: Record<string, fc.Arbitrary<FuzzRequest>> = {};
  for (const tail of ['/ServiceProviderConfig', '/ResourceTypes', '/Schemas']) {
    routes[`GET ${SCIM}${tail}`] = fuzzRequest({ method: 'GET', path: at(tail), headers: auth });
  }
  for (const tail of ['/ResourceTypes/:id', '/Schemas/:id']) {
    const path = fc
      .tuple(realm, pathSegment(fc.constantFrom('User', 'Group')))
      .map(([name, id]) => `/scim/v2/${name}${tail.replace(':id', id)}`);
    routes[`GET ${SCIM}${tail}`] = fuzzRequest({ method: 'GET', path, headers: auth });
  }
  const kinds = [
    ['Users', user, world.users.kept, world.users.doomed],
    ['Groups', group, world.roles.kept, world.roles.doomed],
  ] as const;
  for (const [kind, body, kept, doomed] of kinds) {
    const base = `${SCIM}/${kind}`;
    routes[`GET ${base}`] = fuzzRequest({
      method: 'GET',
      path: at(`/${kind}`),
      query: listQuery,
      headers: auth,
    });
    routes[`POST ${base}/.search`] = fuzzRequest({
      method: 'POST',
      path: at(`/${kind}/.search`),
      headers: auth,
      body: jsonBody(fc.record({ filter: anyText, count: fc.integer() })),
    });
    routes[`POST ${base}`] = fuzzRequest({
      method: 'POST',
      path: at(`/${kind}`),
      headers: auth,
      body: jsonBody(body),
    });
    routes[`GET ${base}/:id`] = fuzzRequest({
      method: 'GET',
      path: withId(kind, [...kept]),
      query: listQuery,
      headers: auth,
    });
    routes[`PUT ${base}/:id`] = fuzzRequest({
      method: 'PUT',
      path: withId(kind, [...kept]),
      headers: auth,
      body: jsonBody(body),
    });
    routes[`PATCH ${base}/:id`] = fuzzRequest({
      method: 'PATCH',
      path: withId(kind, [...kept]),
      headers: auth,
      body: jsonBody(patch),
    });
    routes[`DELETE ${base}/:id`] = fuzzRequest({
      method: 'DELETE',
      path: withId(kind, [...doomed]),
      headers: auth,
    });
  }
  const admin = headers({ authorization: `Bearer ${world.adminToken}` });
  routes[`GET ${API}/settings/provisioning`] = fuzzRequest({
    method: 'GET',
    path: fc.constant(`${API}/settings/provisioning`),
    headers: admin,
  });
  routes[`PUT ${API}/settings/provisioning`] = fuzzRequest({
    method: 'PUT',
    path: fc.constant(`${API}/settings/provisioning`),
    headers: admin,
    body: jsonBody(
      fc.record({
        scimNewUsers: fc.constantFrom(...SCIM_NEW_USER_MODES),
        scimDelete: fc.constantFrom(...SCIM_DELETE_MODES),
      }),
    ),
  });
  return routes;
}
