/** The user list benchmark's command line and fixed sizes (see bench/list.ts). */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resultsDir } from '../lib/paths';

export const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'postgres,pglite' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    users: { type: 'string', default: '100000' },
    'no-build': { type: 'boolean', default: false },
    /** Only these scenarios, e.g. "page 1". */
    only: { type: 'string' },
    /** Where the JSON goes (default bench/results/list.json). */
    out: { type: 'string' },
    /** Writes the server's CPU profile into this folder (node --cpu-prof). */
    'cpu-prof': { type: 'string' },
  },
});
export const resultsFile = args.out ?? join(resultsDir, 'list.json');
export const DURATION = Number(args.duration);
export const WARMUP = Number(args.warmup);
export const CONNECTIONS = Number(args.connections);
export const USERS = Number(args.users);
export const OTHER_TENANTS = 10;
export const OTHER_USERS = 1000;
export const TENANT = 'bench';
export const ADMIN = { email: 'admin@bench.example.test', password: 'Bench-admin-1!' };
export const TARGETS = { page1Rps: 2000, page1P99: 25, deepP99: 50, searchP99: 50 };

export const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
