import { defineRouteFuzzing } from './fuzz-suite';
import { accountGenerators } from './generators-account';
import { auditExportGenerators } from './generators-audit-export';
import { clientGenerators } from './generators-clients';
import { csvExportGenerators } from './generators-csv-export';
import { entityGenerators } from './generators-entities';
import { settingsGenerators } from './generators-settings';
import { webhookGenerators } from './generators-webhooks';

// The tenant data: the five routes of each entity, logos, audit, onboarding, dashboard, and
// the applications (OAuth clients), the account routes, the tenant's settings and the lists'
// CSV exports, and the webhooks.
await defineRouteFuzzing({
  pick: (world) => ({
    ...entityGenerators(world),
    ...clientGenerators(world),
    ...accountGenerators(world),
    ...settingsGenerators(world),
    ...csvExportGenerators(world),
    ...auditExportGenerators(world),
    ...webhookGenerators(world),
  }),
});
