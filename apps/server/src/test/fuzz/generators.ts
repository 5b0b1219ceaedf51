import type fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request';
import { accountGenerators } from './generators-account';
import { clientGenerators } from './generators-clients';
import { entityGenerators } from './generators-entities';
import { publicGenerators } from './generators-public';
import { settingsGenerators } from './generators-settings';
import type { FuzzWorld } from './world';

/** One request generator per route, keyed `METHOD /path` as the server registers the route. */
export function routeGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  return {
    ...publicGenerators(world),
    ...entityGenerators(world),
    ...clientGenerators(world),
    ...accountGenerators(world),
    ...settingsGenerators(world),
  };
}
