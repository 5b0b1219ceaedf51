import fc from 'fast-check';
import { AUDIT_ACTIONS, AUDIT_SORT_FIELDS } from '@tc/contract/audit';
import { idFrom } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { bearer, pageRequest } from './generators-entities';
import { fuzzRequest, jsonBody } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';

/** A date-time of the ISO form the filter takes, with `Z` or an offset, some years out of range. */
const isoTime = fc
  .tuple(
    fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') }),
    fc.constantFrom('Z', '+01:00', '-11:30', '+14:00'),
  )
  .filter(([date]) => !Number.isNaN(date.getTime()))
  .map(([date, zone]) => date.toISOString().replace('Z', zone));

/**
 * The audit log's CSV export: the list's request (its filters, the date range and the sort),
 * answered as a file by the caller's tenant's entries.
 */
export function auditExportGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const filter = {
    entity: fc.constantFrom('users', 'roles', 'permissions', 'projects', 'tenants'),
    entityId: idFrom(world.users.kept),
    action: fc.constantFrom(...AUDIT_ACTIONS),
    actorId: idFrom(world.users.kept),
    from: isoTime,
    to: isoTime,
  };
  return {
    [`POST ${API}/audit/export`]: fuzzRequest({
      method: 'POST',
      path: fc.constant(`${API}/audit/export`),
      headers: bearer(world.adminToken),
      body: jsonBody(pageRequest(AUDIT_SORT_FIELDS, filter)),
    }),
  };
}
