import fc from 'fast-check';
import { MFA_POLICIES } from '@tc/contract/security';
import { edgeNumber } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { bearer } from './generators-entities';
import { fuzzRequest, jsonBody } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';
const at = (path: string) => fc.constant(`${API}${path}`);

/**
 * The tenant's security policy, as its administrator reads and changes it. A policy saved
 * here holds for the passwords set afterwards: a fuzzed request elsewhere may then meet a
 * longer minimum, which it must answer with a 400 like any other refused password.
 */
export function settingsGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const auth = bearer(world.adminToken);
  const policy = fc.record({
    mfaPolicy: fc.constantFrom(...MFA_POLICIES),
    passwordMinLength: fc.oneof(fc.integer({ min: 8, max: 128 }), edgeNumber),
    passwordRequireSpecial: fc.boolean(),
    passwordRefuseCommon: fc.boolean(),
  });
  return {
    [`GET ${API}/settings/security`]: fuzzRequest({
      method: 'GET',
      path: at('/settings/security'),
      headers: auth,
    }),
    [`PUT ${API}/settings/security`]: fuzzRequest({
      method: 'PUT',
      path: at('/settings/security'),
      headers: auth,
      body: jsonBody(policy),
    }),
  };
}
