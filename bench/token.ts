/**
 * Token endpoint benchmark: password-grant and refresh-grant throughput of the built server
 * (a separate process, so autocannon and the server never share an event loop), on PGlite
 * and on PostgreSQL, set against the cost of one argon2id hash.
 *
 *   npx tsx bench/token.ts [--engines pglite,postgres] [--duration 10] [--connections 10]
 *                          [--warmup 2] [--build | --no-build] [--cpu-prof]
 *
 * Results: a table on stdout and bench/results/token.json. See bench/README.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import pg from 'pg';
import { format, resolveConfig } from 'prettier';
import { hashPassword, verifyPassword } from '../apps/server/src/identity/passwords';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = join(root, 'apps/server');
const resultsFile = join(root, 'bench/results/token.json');

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    'hash-samples': { type: 'string', default: '50' },
    'pg-url': {
      type: 'string',
      default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
  },
});

const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const HASH_SAMPLES = Number(args['hash-samples']);
const ENGINES = args.engines.split(',').map((e) => e.trim()) as Engine[];
const CORES = os.availableParallelism();
const REALM = 'demo';
// The demo tenant's administrator (apps/server/src/db/seed-demo.ts), seeded with SEED_DEMO=true.
const USER = { email: 'admin@demo.localhost', password: 'Demo-admin-2026!' };
const CLIENT_ID = 'react-client';
const TOKEN_PATH = `/realms/${REALM}/protocol/openid-connect/token`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TARGETS = { passwordPctOfHashLimit: 90, refreshPerSecondPostgres: 1000 };

type Engine = 'pglite' | 'postgres';

for (const engine of ENGINES) {
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
}

// ---------------------------------------------------------------------------------------------
// Statistics and CPU accounting
// ---------------------------------------------------------------------------------------------

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const TICK = 100; // USER_HZ: /proc reports CPU time in 1/100 s on Linux.

/** CPU seconds (user + system) of one process, from /proc; 0 where /proc is absent. */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return 0;
  }
}

/** CPU seconds of all PostgreSQL server processes (backends, WAL writer, checkpointer…). */
function postgresCpuSeconds(): number {
  let total = 0;
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm === 'postgres') total += processCpuSeconds(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/** Whole-machine CPU seconds: busy and total, from /proc/stat. */
function machineCpuSeconds(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((sum, t) => sum + t, 0);
    const idle = ticks[3]! + ticks[4]!;
    return { busy: (total - idle) / TICK, total: total / TICK };
  } catch {
    return { busy: 0, total: 0 };
  }
}

interface CpuSnapshot {
  at: number;
  server: number;
  postgres: number;
  bench: number;
  machine: { busy: number; total: number };
}

function cpuSnapshot(serverPid: number): CpuSnapshot {
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    server: processCpuSeconds(serverPid),
    postgres: postgresCpuSeconds(),
    bench: (usage.user + usage.system) / 1e6,
    machine: machineCpuSeconds(),
  };
}

/** CPU use over a run, in % of one core (200 % = both cores of a 2-core machine). */
function cpuUse(before: CpuSnapshot, after: CpuSnapshot) {
  const wall = (after.at - before.at) / 1000;
  const pct = (seconds: number) => round((seconds / wall) * 100, 0);
  return {
    serverPct: pct(after.server - before.server),
    postgresPct: pct(after.postgres - before.postgres),
    benchPct: pct(after.bench - before.bench),
    /** Everything else on the machine: other processes, the kernel, interrupts. */
    otherPct: pct(
      after.machine.busy -
        before.machine.busy -
        (after.server - before.server) -
        (after.postgres - before.postgres) -
        (after.bench - before.bench),
    ),
    machineBusyPct: pct(after.machine.busy - before.machine.busy),
    machineCapacityPct: CORES * 100,
  };
}

// ---------------------------------------------------------------------------------------------
// The cost of one password hash
// ---------------------------------------------------------------------------------------------

async function measureHash() {
  await hashPassword(USER.password); // warm-up: WASM-free native addon, but first-call costs
  const hashMs: number[] = [];
  for (let i = 0; i < HASH_SAMPLES; i += 1) {
    const start = performance.now();
    await hashPassword(USER.password);
    hashMs.push(performance.now() - start);
  }
  // A password grant verifies, it does not hash: verifying is one argon2id computation too.
  const stored = await hashPassword(USER.password);
  const verifyMs: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    if (!(await verifyPassword(stored, USER.password))) throw new Error('verify failed');
    verifyMs.push(performance.now() - start);
  }
  // What the machine really sustains with one hash per core in flight (libuv thread pool).
  let done = 0;
  const until = performance.now() + 3000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CORES }, async () => {
      while (performance.now() < until) {
        await hashPassword(USER.password);
        done += 1;
      }
    }),
  );
  const parallelPerSecond = done / ((performance.now() - started) / 1000);
  const medianMs = median(hashMs);
  return {
    samples: HASH_SAMPLES,
    medianMs: round(medianMs, 2),
    meanMs: round(mean(hashMs), 2),
    minMs: round(Math.min(...hashMs), 2),
    p90Ms: round(percentile(hashMs, 90), 2),
    maxMs: round(Math.max(...hashMs), 2),
    verifyMedianMs: round(median(verifyMs), 2),
    cores: CORES,
    /** cores ÷ time of one hash: the most password grants per second this machine can do. */
    hashBoundLimitPerSecond: round(CORES / (medianMs / 1000), 1),
    measuredParallelHashesPerSecond: round(parallelPerSecond, 1),
  };
}

// ---------------------------------------------------------------------------------------------
// The server under test
// ---------------------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(engine: Engine, profileDir: string | undefined): Promise<RunningServer> {
  const port = await freePort();
  const cleanups: Array<() => Promise<void>> = [];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    BOOTSTRAP_ADMIN_PASSWORD: `Bench-${randomBytes(6).toString('hex')}!`,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  if (process.env.UV_THREADPOOL_SIZE) env.UV_THREADPOOL_SIZE = process.env.UV_THREADPOOL_SIZE;
  if (engine === 'postgres') {
    const name = `bench_token_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: args['pg-url'] });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(args['pg-url']);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: args['pg-url'] });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    });
  } else {
    const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-token-pglite-'));
    env.DATA_DIR = dataDir;
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  }

  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, join(serverDir, 'dist/main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    for (const cleanup of cleanups.reverse()) await cleanup();
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the ${engine} server exited during start-up:\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the ${engine} server did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, process: child, stop };
}

// ---------------------------------------------------------------------------------------------
// The two scenarios
// ---------------------------------------------------------------------------------------------

const passwordBody = new URLSearchParams({
  client_id: CLIENT_ID,
  grant_type: 'password',
  username: USER.email,
  password: USER.password,
}).toString();

const refreshBody = (refreshToken: string) =>
  new URLSearchParams({
    client_id: CLIENT_ID,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  }).toString();

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}${TOKEN_PATH}`, {
    method: 'POST',
    headers: FORM,
    body: passwordBody,
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${body}`);
  return (JSON.parse(body) as { refresh_token: string }).refresh_token;
}

/** What the server answered besides 200, and 200s that carried no new refresh token. */
class Answers {
  malformed = 0;
  failures = new Map<string, number>();

  record(status: number, body: string): string | undefined {
    if (status === 200) {
      try {
        const token = (JSON.parse(body) as { refresh_token?: unknown }).refresh_token;
        if (typeof token === 'string' && token.length > 0) return token;
      } catch {
        // counted below
      }
      this.malformed += 1;
      return undefined;
    }
    const key = `${status} ${body.slice(0, 160)}`;
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    return undefined;
  }

  summary() {
    return {
      malformed200: this.malformed,
      failures: Object.fromEntries([...this.failures].sort((a, b) => b[1] - a[1]).slice(0, 5)),
    };
  }
}

/**
 * Refresh tokens rotate: each one is good exactly once, and a reused one revokes its session.
 * The pool holds one live token per session; a request takes the oldest token out and the
 * response puts the session's next token back, so every request presents a fresh, unused
 * token and each session's chain is strictly sequential, as in a real client.
 * (autocannon's per-connection `context` cannot carry the chain: it is reset to
 * `initialContext` each time the request list wraps around, i.e. before every request here.)
 */
class RefreshPool {
  private tokens: string[] = [];
  starved = 0;

  constructor(tokens: string[]) {
    this.tokens = tokens;
  }

  get size() {
    return this.tokens.length;
  }

  take(): string {
    const token = this.tokens.shift();
    if (token !== undefined) return token;
    this.starved += 1;
    return 'starved-no-fresh-token';
  }

  put(token: string) {
    this.tokens.push(token);
  }

  /**
   * Tops the pool up to two sessions per connection with real password grants. A run ends
   * with one request in flight per connection whose answer is never read: those sessions'
   * chains end there, so the pool is topped up before each run.
   */
  async fill(url: string) {
    while (this.tokens.length < CONNECTIONS * 2) {
      const batch = Math.min(CORES * 2, CONNECTIONS * 2 - this.tokens.length);
      this.tokens.push(...(await Promise.all(Array.from({ length: batch }, () => signIn(url)))));
    }
  }
}

interface ScenarioResult {
  durationSeconds: number;
  connections: number;
  /** 200 answers per second over the run. */
  perSecond: number;
  /** autocannon's per-second samples (all statuses). */
  requestsPerSecond: { mean: number; min: number; max: number; stddev: number };
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  malformed200: number;
  failures: Record<string, number>;
  cpu: ReturnType<typeof cpuUse>;
}

function summarise(
  result: AutocannonResult,
  answers: Answers,
  cpu: ReturnType<typeof cpuUse>,
): ScenarioResult {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
  );
  const ok = statusCodes['200'] ?? 0;
  const total = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
  return {
    durationSeconds: result.duration,
    connections: CONNECTIONS,
    perSecond: round(ok / result.duration, 1),
    requestsPerSecond: {
      mean: round(result.requests.mean, 1),
      min: result.requests.min,
      max: result.requests.max,
      stddev: round(result.requests.stddev, 1),
    },
    // autocannon records latencies of 2xx answers only.
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      mean: round(result.latency.mean, 2),
      max: result.latency.max,
    },
    total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    ...answers.summary(),
    cpu,
  };
}

async function passwordScenario(server: RunningServer, duration: number) {
  const answers = new Answers();
  const before = cpuSnapshot(server.process.pid!);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST',
        path: TOKEN_PATH,
        headers: FORM,
        body: passwordBody,
        onResponse: (status, body) => void answers.record(status, body),
      },
    ],
  });
  return summarise(result, answers, cpuUse(before, cpuSnapshot(server.process.pid!)));
}

async function refreshScenario(server: RunningServer, pool: RefreshPool, duration: number) {
  const answers = new Answers();
  const starvedBefore = pool.starved;
  const before = cpuSnapshot(server.process.pid!);
  const request: AutocannonRequest = {
    method: 'POST',
    path: TOKEN_PATH,
    headers: FORM,
    setupRequest: (req) => ({ ...req, body: refreshBody(pool.take()) }),
    onResponse: (status, body) => {
      const next = answers.record(status, body);
      if (next) pool.put(next);
    },
  };
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    requests: [request],
  });
  const summary = summarise(result, answers, cpuUse(before, cpuSnapshot(server.process.pid!)));
  return { ...summary, starved: pool.starved - starvedBefore };
}

/** Proves the run exercised real rotation: a token works once, and its reuse is refused. */
async function checkRotation(url: string, pool: RefreshPool) {
  const token = pool.take();
  const post = (refreshToken: string) =>
    fetch(`${url}${TOKEN_PATH}`, {
      method: 'POST',
      headers: FORM,
      body: refreshBody(refreshToken),
    });
  const first = await post(token);
  await first.arrayBuffer();
  const reuse = await post(token);
  const reuseBody = (await reuse.json()) as { error_description?: string };
  return {
    firstUse: first.status,
    reuse: reuse.status,
    reuseError: reuseBody.error_description ?? '',
    ok: first.status === 200 && reuse.status === 400,
  };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function benchEngine(engine: Engine, limit: number, profileDir: string | undefined) {
  console.error(`\n[${engine}] starting the built server…`);
  const server = await startServer(engine, profileDir);
  try {
    if (WARMUP > 0) {
      console.error(`[${engine}] password grant warm-up ${WARMUP} s`);
      await passwordScenario(server, WARMUP);
    }
    console.error(`[${engine}] password grant ${DURATION} s, ${CONNECTIONS} connections`);
    const password = await passwordScenario(server, DURATION);

    const pool = new RefreshPool([]);
    if (WARMUP > 0) {
      await pool.fill(server.url);
      console.error(`[${engine}] refresh grant warm-up ${WARMUP} s`);
      await refreshScenario(server, pool, WARMUP);
    }
    await pool.fill(server.url);
    console.error(`[${engine}] refresh grant ${DURATION} s, ${CONNECTIONS} connections`);
    const refresh = await refreshScenario(server, pool, DURATION);
    await pool.fill(server.url);
    const rotation = await checkRotation(server.url, pool);
    return {
      password: { ...password, pctOfHashBoundLimit: round((password.perSecond / limit) * 100, 1) },
      refresh,
      rotationCheck: rotation,
    };
  } finally {
    await server.stop();
  }
}

/** Newest modification time under a folder, in ms. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => {
    if (entry === 'node_modules' || entry === 'test' || entry.endsWith('.test.ts')) return newest;
    return Math.max(newest, newestMtime(join(path, entry)));
  }, 0);
}

/**
 * Whether apps/server/dist/main.js is older than its sources. The build is only redone then:
 * other tests spawn that same file, and rewriting it under them for nothing is best avoided.
 */
function distIsStale(): boolean {
  const dist = join(serverDir, 'dist/main.js');
  if (!existsSync(dist)) return true;
  const sources = [
    join(serverDir, 'src'),
    join(serverDir, 'build.mjs'),
    join(serverDir, 'package.json'),
    join(root, 'packages/contract/src'),
  ];
  return Math.max(...sources.map(newestMtime)) > statSync(dist).mtimeMs;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ');
  return [
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n');
}

async function main() {
  if (args.build || (!args['no-build'] && distIsStale())) {
    console.error('building apps/server/dist/main.js…');
    const build = spawnSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the server build failed');
  }
  const profileDir = args['cpu-prof'] ? join(root, 'bench/results/profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const busyBeforePct = await idleCheck();
  if (busyBeforePct > 15) {
    console.error(
      `warning: the machine is already ${busyBeforePct} % busy before the benchmark starts; ` +
        'figures will be low (see "otherPct" in the results)',
    );
  }
  console.error(`measuring ${HASH_SAMPLES} argon2id hashes…`);
  const hash = await measureHash();
  const limit = hash.hashBoundLimitPerSecond;
  console.error(
    `one hash: median ${hash.medianMs} ms, mean ${hash.meanMs} ms → hash-bound limit ${limit}/s`,
  );

  const engines: Partial<Record<Engine, Awaited<ReturnType<typeof benchEngine>>>> = {};
  for (const engine of ENGINES) engines[engine] = await benchEngine(engine, limit, profileDir);

  const pgResult = engines.postgres;
  const targets = {
    passwordPctOfHashBoundLimit: {
      target: `>= ${TARGETS.passwordPctOfHashLimit} %`,
      ...Object.fromEntries(
        Object.entries(engines).map(([engine, r]) => [
          engine,
          {
            value: r.password.pctOfHashBoundLimit,
            met: r.password.pctOfHashBoundLimit >= TARGETS.passwordPctOfHashLimit,
          },
        ]),
      ),
    },
    refreshPerSecondPostgres: {
      target: `>= ${TARGETS.refreshPerSecondPostgres}/s`,
      value: pgResult?.refresh.perSecond ?? null,
      met: pgResult ? pgResult.refresh.perSecond >= TARGETS.refreshPerSecondPostgres : null,
    },
  };

  const results = {
    benchmark: 'token endpoint',
    date: new Date().toISOString(),
    commit: spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root }).stdout?.toString().trim(),
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: CORES,
      memoryGiB: round(os.totalmem() / 2 ** 30, 1),
      node: process.version,
      uvThreadpoolSize: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
      busyBeforeStartPct: busyBeforePct,
    },
    settings: {
      durationSeconds: DURATION,
      warmupSeconds: WARMUP,
      connections: CONNECTIONS,
      realm: REALM,
      server: 'apps/server/dist/main.js in its own process, LOG_LEVEL=warn',
    },
    hash,
    engines,
    targets,
  };
  mkdirSync(dirname(resultsFile), { recursive: true });
  const json = await format(JSON.stringify(results), {
    ...(await resolveConfig(resultsFile)),
    parser: 'json',
  });
  writeFileSync(resultsFile, json);

  const rows = [['', ...Object.keys(engines)]];
  const each = (label: string, pick: (r: NonNullable<typeof pgResult>) => string) =>
    rows.push([label, ...Object.values(engines).map(pick)]);
  const lat = (l: ScenarioResult['latencyMs']) => `${l.p50} / ${l.p99} ms`;
  const bad = (s: ScenarioResult) => `${s.non2xx} / ${s.errors} / ${s.timeouts}`;
  each('password grants/s', (r) => String(r.password.perSecond));
  each('  % of hash-bound limit', (r) => `${r.password.pctOfHashBoundLimit} %`);
  each('  latency p50 / p99', (r) => lat(r.password.latencyMs));
  each('  non-2xx / errors / timeouts', (r) => bad(r.password));
  each('  CPU % server/pg/bench/other', (r) => cpuCell(r.password.cpu));
  each('refresh grants/s', (r) => String(r.refresh.perSecond));
  each('  latency p50 / p99', (r) => lat(r.refresh.latencyMs));
  each('  non-2xx / errors / timeouts', (r) => bad(r.refresh));
  each('  CPU % server/pg/bench/other', (r) => cpuCell(r.refresh.cpu));
  each('rotation check (200, then 400)', (r) => (r.rotationCheck.ok ? 'ok' : 'FAILED'));

  console.log(
    `\nargon2id (m=19 MiB, t=2, p=1): median ${hash.medianMs} ms, mean ${hash.meanMs} ms ` +
      `over ${hash.samples} hashes (verify median ${hash.verifyMedianMs} ms)`,
  );
  console.log(
    `hash-bound limit: ${CORES} cores / ${hash.medianMs} ms = ${limit} grants/s ` +
      `(measured with ${CORES} hashes in flight: ${hash.measuredParallelHashesPerSecond}/s)\n`,
  );
  console.log(table(rows));
  console.log(
    `\ntargets: password ≥ ${TARGETS.passwordPctOfHashLimit} % of limit — ` +
      Object.entries(engines)
        .map(([e, r]) => `${e} ${r.password.pctOfHashBoundLimit} %`)
        .join(', ') +
      `; refresh on PostgreSQL ≥ ${TARGETS.refreshPerSecondPostgres}/s — ` +
      (pgResult ? `${pgResult.refresh.perSecond}/s` : 'not run'),
  );
  console.log(`results: ${resultsFile.slice(root.length + 1)}`);
  if (profileDir) console.log(`server CPU profiles: ${profileDir.slice(root.length + 1)}`);
}

const cpuCell = (cpu: ReturnType<typeof cpuUse>) =>
  `${cpu.serverPct}/${cpu.postgresPct}/${cpu.benchPct}/${cpu.otherPct} of ${cpu.machineCapacityPct}`;

/** Busy share of the whole machine over one second, before anything starts. */
async function idleCheck(): Promise<number> {
  const before = machineCpuSeconds();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = machineCpuSeconds();
  const total = after.total - before.total;
  return total > 0 ? round(((after.busy - before.busy) / total) * 100, 0) : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
