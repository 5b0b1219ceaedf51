import { defineRouteFuzzing } from './fuzz-suite';
import { publicGenerators } from './generators-public';

// The identity provider, the account routes, and all else outside the tenant data; and the
// check that no route of the server goes unfuzzed.
await defineRouteFuzzing({ pick: publicGenerators, checkCoverage: true });
