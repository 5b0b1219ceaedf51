import type fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request';
import { accountGenerators } from './generators-account';
import { auditExportGenerators } from './generators-audit-export';
import { clientGenerators } from './generators-clients';
import { entityGenerators } from './generators-entities';
import { publicGenerators } from './generators-public';
import { settingsGenerators } from './generators-settings';
import { csvExportGenerators } from './generators-csv-export';
import { scimGenerators } from './generators-scim';
import { userImportGenerators } from './generators-user-import';
import { webhookGenerators } from './generators-webhooks';
import type { FuzzWorld } from './world';

/** One request generator per route, keyed `METHOD /path` as the server registers the route. */
export function routeGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  return {
    ...publicGenerators(world),
    ...entityGenerators(world),
    ...clientGenerators(world),
    ...accountGenerators(world),
    ...settingsGenerators(world),
    ...scimGenerators(world),
    ...webhookGenerators(world),
    ...userImportGenerators(world),
    ...csvExportGenerators(world),
    ...auditExportGenerators(world),
  };
}
