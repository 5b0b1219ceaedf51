import { defineRouteFuzzing } from './fuzz-suite';
import { clientGenerators } from './generators-clients';
import { entityGenerators } from './generators-entities';
import { settingsGenerators } from './generators-settings';

// The tenant data: the five routes of each entity, logos, audit, onboarding, dashboard, and
// the applications (OAuth clients), and the tenant's settings.
await defineRouteFuzzing({
  pick: (world) => ({
    ...entityGenerators(world),
    ...clientGenerators(world),
    ...settingsGenerators(world),
  }),
});
