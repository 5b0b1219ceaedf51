/** The OpenID Connect benchmark's command line, fixed settings and statistics. */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { adminPostgresUrl } from '../lib/database';
import { resultsDir } from '../lib/paths';

export const resultsFile = join(resultsDir, 'oidc.json');

export const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    tenants: { type: 'string', default: '3' },
    users: { type: 'string', default: '200' },
    'step-samples': { type: 'string', default: '20' },
    'pg-url': { type: 'string', default: adminPostgresUrl },
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    /** Another server script to run, e.g. apps/server/dist/main.js (default: start.cjs). */
    server: { type: 'string' },
    /** Measure this commit's server, built apart from the working tree (shared trees). */
    commit: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    /** A PostgreSQL setting for the benchmark database (diagnostics), e.g. log_min_duration_statement=0. */
    'pg-set': { type: 'string', multiple: true, default: [] },
    only: {
      type: 'string',
      default: 'sign-ins,client-credentials,refresh-provider,refresh-password',
    },
  },
});

export const DURATION = Number(args.duration);
export const WARMUP = Number(args.warmup);
export const CONNECTIONS = Number(args.connections);
export const TENANTS = Number(args.tenants);
export const USERS_PER_TENANT = Number(args.users);
/** Sign-ins done one at a time to measure each request's CPU (0: none). */
export const STEP_SAMPLES = Number(args['step-samples']);

export const SCENARIOS = [
  'sign-ins',
  'client-credentials',
  'refresh-provider',
  'refresh-password',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
/** `--only sign-ins,refresh-provider`: which scenarios run (e.g. to profile one alone). */
export const ONLY = new Set(
  args.only.split(',').map((name) => {
    const scenario = SCENARIOS.find((known) => known === name.trim());
    if (!scenario) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.join(', ')}`);
    return scenario;
  }),
);

/** Every seeded user's password; one argon2id hash of it is stored for all of them. */
export const PASSWORD = 'Bench-user-2026!';
export const ADMIN_PASSWORD = 'Bench-admin-2026!';
/** The application that signs users in with the code flow: a public client, PKCE. */
export const SPA_CLIENT = 'bench-spa';
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
/** The confidential application of the client credentials grant, in the first tenant. */
export const SERVICE_CLIENT = 'bench-service';
/** The console's client: the password grant and the refresh of its sessions are ours. */
export const CONSOLE_CLIENT = 'react-client';
export const SCOPE = 'openid profile email';
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export const TARGETS = {
  codeFlowPctOfPassword: 85,
  clientCredentialsPerSecond: 2000,
  refreshPerSecond: 1000,
};

export const tokenPath = (realm: string) => `/realms/${realm}/protocol/openid-connect/token`;

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
