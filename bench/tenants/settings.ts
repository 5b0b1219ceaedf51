/** The tenants benchmark's command line and fixed sizes (see bench/tenants.ts). */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resultsDir } from '../lib/paths';

export const { values: args } = parseArgs({
  options: {
    /** Seconds of each turn: one shape on one server. */
    duration: { type: 'string', default: '0.5' },
    /** Turns of each shape on each server, alternating between the servers. */
    rounds: { type: 'string', default: '12' },
    /** Seconds of every shape, unmeasured, before the first round at each size. */
    warmup: { type: 'string', default: '1' },
    /** Concurrent requests of the list measurements (one super administrator's consoles). */
    connections: { type: 'string', default: '4' },
    /** The small and the large size of the tenant list. */
    small: { type: 'string', default: '10' },
    large: { type: 'string', default: '10000' },
    /** Tenants created through the API, and how many requests at once. */
    creations: { type: 'string', default: '600' },
    'create-connections': { type: 'string', default: '8' },
    'no-build': { type: 'boolean', default: false },
    /** Only these list shapes, e.g. "name asc,search". */
    only: { type: 'string' },
    /** Where the JSON goes (default bench/results/tenants.json). */
    out: { type: 'string' },
  },
});

export const resultsFile = args.out ?? join(resultsDir, 'tenants.json');
export const DURATION = Number(args.duration);
export const ROUNDS = Number(args.rounds);
export const WARMUP = Number(args.warmup);
export const CONNECTIONS = Number(args.connections);
export const SMALL = Number(args.small);
export const LARGE = Number(args.large);
export const CREATIONS = Number(args.creations);
export const CREATE_CONNECTIONS = Number(args['create-connections']);
/** The console's default page size. */
export const PAGE_SIZE = 10;
/** Large ÷ small: the list at LARGE tenants answers within this factor of SMALL. */
export const TARGETS = { ratio: 1.5, creationsPerSecond: 50 };

export const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
