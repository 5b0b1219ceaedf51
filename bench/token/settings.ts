/** The token benchmark's command line, fixed settings and the statistics it reports with. */
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { adminPostgresUrl, parseEngines } from '../lib/database';
import { resultsDir, serverMain } from '../lib/paths';

export const resultsFile = join(resultsDir, 'token.json');

export const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    'hash-samples': { type: 'string', default: '50' },
    'idle-wait': { type: 'string', default: '300' },
    attempts: { type: 'string', default: '3' },
    'pg-url': {
      type: 'string',
      default: adminPostgresUrl,
    },
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'pg-set': { type: 'string', multiple: true, default: [] },
    /** Another built server to measure, e.g. a patched copy: path to its dist/main.js. */
    server: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    'no-hash-only': { type: 'boolean', default: false },
  },
});

export const PG_SETTINGS = args['pg-set'];
export const SERVER_MAIN = args.server ?? serverMain;
export const DURATION = Number(args.duration);
export const WARMUP = Number(args.warmup);
export const CONNECTIONS = Number(args.connections);
export const HASH_SAMPLES = Number(args['hash-samples']);
export const IDLE_WAIT = Number(args['idle-wait']);
/** Machine busy share (of all cores) under which it counts as idle. */
export const IDLE_BUSY_PCT = 10;
/** A measurement during which other processes used more CPU than this (% of a core) is redone. */
export const OTHER_MAX_PCT = 10;
export const ATTEMPTS = Number(args.attempts);
export const ENGINES = parseEngines(args.engines);
export const CORES = os.availableParallelism();
export const REALM = 'demo';
// The demo tenant's administrator (apps/server/src/bootstrap/seed-demo.ts), seeded with SEED_DEMO=true.
export const USER = { email: 'admin@demo.localhost', password: 'Demo-admin-2026!' };
export const CLIENT_ID = 'react-client';
export const TOKEN_PATH = `/realms/${REALM}/protocol/openid-connect/token`;
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const TARGETS = { passwordPctOfHashLimit: 90, refreshPerSecondPostgres: 1000 };

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
