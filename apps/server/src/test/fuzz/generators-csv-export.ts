import type fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request';
import type { FuzzWorld } from './world';

/** One request generator per route of the csv-export feature (filled in with it). */

export function csvExportGenerators(_world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  return {};
}
