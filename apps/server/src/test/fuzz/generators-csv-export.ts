import fc from 'fast-check';
import { COUNTRY_CODES } from '@tc/contract/countries';
import { PROJECT_SORT_FIELDS } from '@tc/contract/projects';
import { USER_SORT_FIELDS } from '@tc/contract/users';
import { idFrom } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { bearer, pageRequest } from './generators-entities';
import { fuzzRequest, jsonBody } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';
const status = fc.constantFrom('active', 'inactive');

/**
 * The CSV exports of the users and projects lists: the lists' own page requests (their
 * paging is ignored), then mutated. A valid one answers the file, whatever the filter.
 */
export function csvExportGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const { tenant, adminToken } = world;
  const auth = bearer(adminToken);
  const roleIds = [tenant.memberRoleId, ...world.roles.kept];
  const userIds = [tenant.adminId, ...world.users.kept];
  return {
    [`POST ${API}/users/export`]: fuzzRequest({
      method: 'POST',
      path: fc.constant(`${API}/users/export`),
      headers: auth,
      body: jsonBody(pageRequest(USER_SORT_FIELDS, { status, roleId: idFrom(roleIds) })),
    }),
    [`POST ${API}/projects/export`]: fuzzRequest({
      method: 'POST',
      path: fc.constant(`${API}/projects/export`),
      headers: auth,
      body: jsonBody(
        pageRequest(PROJECT_SORT_FIELDS, {
          ownerId: idFrom(userIds),
          country: fc.constantFrom(...COUNTRY_CODES),
        }),
      ),
    }),
  };
}
