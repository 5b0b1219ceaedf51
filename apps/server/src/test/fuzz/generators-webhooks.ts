import type fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request';
import type { FuzzWorld } from './world';

/** One request generator per route of the webhooks feature (filled in with it). */

export function webhookGenerators(_world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  return {};
}
