/** The mixed benchmark's command line, its scenarios and the targets each is judged by. */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Engine } from '../lib/database';
import { resultsDir } from '../lib/paths';

export const { values: args } = parseArgs({
  options: {
    /** tenants50, tenant100k or tenant1m; several separated by commas. */
    scenario: { type: 'string', default: 'tenants50' },
    engine: { type: 'string', default: 'postgres' },
    /** Closed-loop consoles per run; one set of runs for each count. */
    connections: { type: 'string', default: '10,50' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    /** Smaller seeds for a quick check: users (and projects) per tenant, number of tenants. */
    users: { type: 'string' },
    projects: { type: 'string' },
    tenants: { type: 'string' },
    /** Which runs: mix, repeated, pages (real server and floor). */
    runs: { type: 'string', default: 'mix,repeated,pages' },
    /** One console alone over every list shape, before the load runs. */
    solo: { type: 'boolean', default: false },
    /** Only the solo pass, no load runs. */
    'solo-only': { type: 'boolean', default: false },
    /** Requests per shape in the solo pass. */
    samples: { type: 'string', default: '30' },
    /** Seconds one shape may take in the solo pass; a slow shape stops early (fewer samples). */
    'shape-budget': { type: 'string', default: '20' },
    /** Seeds the consoles' random choices: the same number sends the same requests. */
    seed: { type: 'string', default: '1' },
    'no-build': { type: 'boolean', default: false },
    /** Another server to measure: a built main.js, or apps/server/src/main.ts run under tsx. */
    server: { type: 'string' },
    /**
     * Server processes behind nginx, one fleet after the other (1,2,3): the mix only, on
     * PostgreSQL, through nginx and, with one process, also straight to it.
     */
    processes: { type: 'string' },
    /** bench/results/mix.json, or mix-fleet.json with --processes. */
    out: { type: 'string' },
  },
});

export interface Scenario {
  name: string;
  /** Tenants the consoles work in, each with `users` users and `projects` projects. */
  tenants: number;
  users: number;
  projects: number;
  /** Small tenants nobody signs in to: every query must still pick its tenant's rows. */
  bystanders: number;
}

const SCENARIOS: Record<string, Omit<Scenario, 'name'>> = {
  tenants50: { tenants: 50, users: 2000, projects: 200, bystanders: 0 },
  tenant100k: { tenants: 1, users: 100_000, projects: 5000, bystanders: 5 },
  tenant1m: { tenants: 1, users: 1_000_000, projects: 20_000, bystanders: 5 },
};
export const BYSTANDER_USERS = 1000;
/** The floor server pages by OFFSET: a floor only for tenants this small. */
export const FLOOR_MAX_USERS = 20_000;

export function selectedScenarios(): Scenario[] {
  return args.scenario.split(',').map((name) => {
    const scenario = SCENARIOS[name.trim()];
    if (!scenario) throw new Error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS)}`);
    return {
      name: name.trim(),
      tenants: args.tenants ? Number(args.tenants) : scenario.tenants,
      users: args.users ? Number(args.users) : scenario.users,
      projects: args.projects ? Number(args.projects) : scenario.projects,
      bystanders: scenario.bystanders,
    };
  });
}

export function selectedEngine(): Engine {
  if (args.engine !== 'postgres' && args.engine !== 'pglite') {
    throw new Error(`--engine is postgres or pglite, not ${args.engine}`);
  }
  return args.engine;
}

export const CONNECTIONS = args.connections.split(',').map(Number);
export const DURATION = Number(args.duration);
export const WARMUP = Number(args.warmup);
export const SAMPLES = Number(args.samples);
export const SHAPE_BUDGET_MS = Number(args['shape-budget']) * 1000;
export const SEED = Number(args.seed);
export const PROCESSES = (args.processes ?? '').split(',').filter(Boolean).map(Number);
export const OUT = args.out ?? join(resultsDir, args.processes ? 'mix-fleet.json' : 'mix.json');
export const RUNS = new Set(args.runs.split(',').map((run) => run.trim()));

/**
 * What each scenario must reach on PostgreSQL (2 cores): throughput judged at 50 consoles, the
 * tail at 10 (closed loops: at 50 the tail is mostly queueing), and one console alone.
 */
export interface Targets {
  mixRpsAt50?: number;
  mixP99At10Ms?: number;
  /** Random users pages on the real server, % of the bare floor's rate. */
  pagesPctOfFloor?: number;
  /** Every users sort × direction, one console alone: p99. */
  soloSortP99Ms?: number;
  /** Every list shape, one console alone: p99. */
  soloShapeP99Ms?: number;
}

export function targetsFor(scenario: string, engine: Engine): Targets {
  if (engine === 'pglite') return scenario === 'tenant100k' ? { soloShapeP99Ms: 50 } : {};
  if (scenario === 'tenants50') return { mixRpsAt50: 1000, mixP99At10Ms: 30, pagesPctOfFloor: 70 };
  if (scenario === 'tenant100k') return { mixRpsAt50: 800, mixP99At10Ms: 40, soloSortP99Ms: 15 };
  if (scenario === 'tenant1m') return { mixP99At10Ms: 100, soloShapeP99Ms: 50 };
  return {};
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
