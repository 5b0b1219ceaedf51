import { defineRouteFuzzing } from './fuzz-suite';
import { clientGenerators } from './generators-clients';
import { entityGenerators } from './generators-entities';

// The tenant data: the five routes of each entity, logos, audit, onboarding, dashboard, and
// the applications (OAuth clients).
await defineRouteFuzzing({
  pick: (world) => ({ ...entityGenerators(world), ...clientGenerators(world) }),
});
