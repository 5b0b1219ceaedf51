import type fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request';
import type { FuzzWorld } from './world';

/** One request generator per route of the user-import feature (filled in with it). */

export function userImportGenerators(_world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  return {};
}
