import type fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request';
import type { FuzzWorld } from './world';

/** One request generator per route of the scim feature (filled in with it). */

export function scimGenerators(_world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  return {};
}
