import { defineRouteFuzzing } from './fuzz-suite';
import { entityGenerators } from './generators-entities';

// The tenant data: the five routes of each entity, logos, audit, onboarding, dashboard.
await defineRouteFuzzing({ pick: entityGenerators });
