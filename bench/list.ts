/**
 * User list benchmark: POST /api/v1.0/users/page of the built server (a separate process) on a
 * tenant of 100,000 users (plus ten tenants of 1,000), on PostgreSQL and on PGlite:
 * page 1 and page 5,000 sorted by e-mail, and a search on an e-mail fragment.
 *
 *   npx tsx bench/list.ts [--engines postgres,pglite] [--duration 10] [--connections 50]
 *                         [--warmup 2] [--users 100000] [--no-build]
 *
 * Results: a table on stdout and bench/results/list.json. See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type AutocannonResult } from 'autocannon';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { provisionTenant } from '../apps/server/src/modules/tenants/service';
import { insertUser } from '../apps/server/src/modules/users/service';
import { pageUsers } from '../apps/server/src/modules/users/page-users';
import { createPostgresDatabase } from '../apps/server/src/test/harness';
import { passwordGrant, startBenchServer, type BenchServer } from './bench-server';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = join(root, 'apps/server');
const defaultResultsFile = join(root, 'bench/results/list.json');

const { values: args } = parseArgs({
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
const resultsFile = args.out ?? defaultResultsFile;
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const USERS = Number(args.users);
const OTHER_TENANTS = 10;
const OTHER_USERS = 1000;
const TENANT = 'bench';
const ADMIN = { email: 'admin@bench.example.test', password: 'Bench-admin-1!' };
const TARGETS = { page1Rps: 2000, page1P99: 25, deepP99: 50, searchP99: 50 };
type Engine = 'postgres' | 'pglite';

const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

// ---------------------------------------------------------------------------------------------
// Seeding: bulk SQL straight into the database
// ---------------------------------------------------------------------------------------------

const FIRST = [
  'Ada',
  'Bob',
  'Cleo',
  'Dan',
  'Eve',
  'Finn',
  'Gia',
  'Hugo',
  'Iris',
  'Jon',
  'Kai',
  'Lea',
  'Max',
  'Nina',
  'Otto',
  'Pia',
  'Quinn',
  'Rosa',
  'Sam',
  'Tina',
];
const LAST = [
  'Adler',
  'Berg',
  'Costa',
  'Dietz',
  'Engel',
  'Fischer',
  'Gruber',
  'Hahn',
  'Ito',
  'Jansen',
  'Keller',
  'Lang',
  'Meier',
  'Novak',
  'Olsen',
  'Peters',
  'Quast',
  'Roth',
  'Schulz',
  'Vogel',
  'Weber',
  'Young',
  'Zimmer',
];
const arr = (names: string[]) => `array[${names.map((n) => `'${n}'`).join(',')}]`;

/**
 * n users: e-mails `first.last.<6 hex of md5(g)>@<domain>` (distinct, lower case), 20×23 name
 * combinations, every 10th inactive, every 50th an Admin. A 4-hex fragment matches a handful.
 */
async function seedUsers(
  db: Database,
  tenant: { tenantId: string; adminRoleId: string; memberRoleId: string },
  n: number,
  domain: string,
) {
  await db.execute(
    sql.raw(`insert into users (tenant_id, email, first_name, last_name, role_id, status)
      select '${tenant.tenantId}',
        lower(f || '.' || l || '.' || substr(md5(g::text), 1, 6) || '.' || g || '@${domain}'),
        f, l,
        case when g % 50 = 0 then '${tenant.adminRoleId}'::uuid else '${tenant.memberRoleId}'::uuid end,
        case when g % 10 = 0 then 'inactive' else 'active' end
      from generate_series(1, ${n}) g,
        lateral (select (${arr(FIRST)})[1 + g % ${FIRST.length}] f,
                        (${arr(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] l) names`),
  );
}

async function seed(
  db: Database,
): Promise<{ tenantId: string; search: string; searchMatches: number }> {
  const started = performance.now();
  const main = await db.transaction(async (tx) => {
    const tenant = await provisionTenant(tx, { name: TENANT, domain: 'bench.example.test' });
    await insertUser(tx, {
      tenantId: tenant.tenantId,
      email: ADMIN.email,
      firstName: 'Ada',
      lastName: 'Admin',
      roleId: tenant.adminRoleId,
      password: ADMIN.password,
    });
    return tenant;
  });
  await seedUsers(db, main, USERS, 'bench.example.test');
  for (let i = 1; i <= OTHER_TENANTS; i++) {
    const tenant = await db.transaction((tx) =>
      provisionTenant(tx, { name: `other${i}`, domain: `other${i}.example.test` }),
    );
    await seedUsers(db, tenant, OTHER_USERS, `other${i}.example.test`);
  }
  await db.execute(sql.raw('vacuum analyze'));
  // The search fragment: 4 hex characters of one user's e-mail token.
  const search = await firstValue(db, `select substr(md5('4242'), 2, 4) v`);
  const matches = Number(
    await firstValue(
      db,
      `select count(*)::int v from users where tenant_id = '${main.tenantId}' and (email ilike '%${search}%' or first_name ilike '%${search}%' or last_name ilike '%${search}%')`,
    ),
  );
  console.error(
    `  seeded in ${round((performance.now() - started) / 1000)} s; search "${search}" matches ${matches}`,
  );
  return { tenantId: main.tenantId, search, searchMatches: matches };
}

async function firstValue(db: Database, query: string): Promise<string> {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows: Array<{ v: unknown }> };
  return String(result.rows[0]!.v);
}

// ---------------------------------------------------------------------------------------------
// The queries the server runs, and their plans
// ---------------------------------------------------------------------------------------------

interface Scenario {
  name: string;
  body: object;
  /** A different body for each request (the n-th): every request misses the page cache. */
  vary?: (n: number) => object;
}

const scenarios = (search: string): Scenario[] => [
  {
    name: 'page 1',
    body: { pageIndex: 1, pageSize: 10, listSort: { field: 'email', direction: 0 } },
  },
  {
    name: 'page 5000',
    body: { pageIndex: 5000, pageSize: 10, listSort: { field: 'email', direction: 0 } },
  },
  {
    name: 'search',
    body: {
      pageIndex: 1,
      pageSize: 10,
      filter: { search },
      listSort: { field: 'email', direction: 0 },
    },
  },
  {
    // Pages 1, 2, 3, … each asked for once: the cost of a page read from the database.
    name: 'uncached pages',
    body: { pageIndex: 1, pageSize: 10, listSort: { field: 'email', direction: 0 } },
    vary: (n) => ({ pageIndex: n + 1, pageSize: 10, listSort: { field: 'email', direction: 0 } }),
  },
];

const selected = (search: string) =>
  scenarios(search).filter((s) => !args.only || args.only.split(',').includes(s.name));

/** Runs pageUsers with a logging Drizzle instance to capture its SQL, then EXPLAIN ANALYZEs it. */
async function explainAll(
  run: (query: string, params: unknown[]) => Promise<string[]>,
  makeDb: (log: (query: string, params: unknown[]) => void) => Database,
  tenantId: string,
  search: string,
) {
  const plans: Record<string, Array<{ sql: string; plan: string[] }>> = {};
  for (const scenario of scenarios(search)) {
    const captured: Array<{ query: string; params: unknown[] }> = [];
    const db = makeDb((query, params) => captured.push({ query, params }));
    const request = { filter: {}, ...scenario.body } as Parameters<typeof pageUsers>[0]['request'];
    await pageUsers({ db, caller: { tenantId } as never, request } as never);
    plans[scenario.name] = [];
    for (const { query, params } of captured) {
      // Once to warm the caches, then the measured plan.
      await run(`explain (analyze, buffers) ${query}`, params);
      plans[scenario.name]!.push({
        sql: query,
        plan: await run(`explain (analyze, buffers) ${query}`, params),
      });
    }
  }
  return plans;
}

// ---------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------

interface RunningServer extends BenchServer {
  databaseName?: string;
}

async function startServer(
  env: Record<string, string>,
  databaseName?: string,
): Promise<RunningServer> {
  const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  return { ...(await startBenchServer(env, { nodeArgs })), databaseName };
}

const signIn = async (url: string) => (await passwordGrant(url, TENANT, ADMIN)).access_token;

// ---------------------------------------------------------------------------------------------
// CPU accounting: ticks from /proc/<pid>/stat
// ---------------------------------------------------------------------------------------------

const TICK = 100;
/** CPU ticks per matching pid (processes that end during a run lose their share). */
function cpuTicks(
  match: (pid: string, comm: string, cmdline: string) => boolean,
): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!match(pid, comm, cmdline)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone
    }
  }
  return ticks;
}
const ticksUsed = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].reduce((sum, [pid, t]) => sum + t - (before.get(pid) ?? 0), 0);
function machineTicks() {
  const t = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 8)
    .map(Number);
  return {
    busy: t.reduce((a, b) => a + b, 0) - t[3]! - t[4]!,
    total: t.reduce((a, b) => a + b, 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

async function measure(server: RunningServer, token: string, scenario: Scenario) {
  const url = `${server.url}/api/v1.0/users/page`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = JSON.stringify(scenario.body);
  const check = await fetch(url, { method: 'POST', headers, body });
  const checkText = await check.text();
  if (check.status !== 200) throw new Error(`${scenario.name}: ${check.status} ${checkText}`);
  const page = JSON.parse(checkText).data as {
    data: Array<{ email: string }>;
    totalCount: number;
    pageIndex: number;
    pageSize: number;
  };
  const firstResponse = {
    rows: page.data.length,
    totalCount: page.totalCount,
    firstEmail: page.data[0]?.email,
  };
  const offset = (page.pageIndex - 1) * page.pageSize;
  if (page.data.length === 0 && page.totalCount > offset)
    throw new Error(`${scenario.name}: empty page ${checkText}`);

  if (WARMUP > 0)
    await autocannon({
      url,
      method: 'POST',
      headers,
      body,
      connections: CONNECTIONS,
      duration: WARMUP,
    });
  const load = os.loadavg();
  const isPg = (_: string, comm: string, cmdline: string) =>
    comm === 'postgres' &&
    (!/\(\d+\)/.test(cmdline) ||
      (!!server.databaseName && cmdline.includes(` ${server.databaseName} `)));
  const isServer = (pid: string) => pid === String(server.child.pid);
  const serverTicks = cpuTicks(isServer);
  const pgTicks = cpuTicks(isPg);
  const before = {
    serverTicks,
    pgTicks,
    server: 0,
    pg: 0,
    machine: machineTicks(),
    at: performance.now(),
  };
  console.error(
    `  ${scenario.name}: ${DURATION} s, ${CONNECTIONS} connections (load ${load.map((l) => round(l, 2)).join(' ')})`,
  );
  let sent = 0;
  const vary = scenario.vary;
  const result: AutocannonResult = await autocannon({
    url,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: DURATION,
    ...(vary && {
      requests: [
        { setupRequest: (request) => ({ ...request, body: JSON.stringify(vary(sent++)) }) },
      ],
    }),
  });
  const wall = (performance.now() - before.at) / 1000;
  const afterTicks = { server: cpuTicks(isServer), pg: cpuTicks(isPg), machine: machineTicks() };
  const after = {
    server: before.server + ticksUsed(before.serverTicks, afterTicks.server),
    pg: before.pg + ticksUsed(before.pgTicks, afterTicks.pg),
    machine: afterTicks.machine,
  };
  const pct = (ticks: number) => round((ticks / TICK / wall) * 100, 0);
  return {
    scenario: scenario.name,
    body: scenario.body,
    firstResponse,
    requestsPerSecond: round(result.requests.average, 0),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    total2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    loadAverageBefore: load.map((l) => round(l, 2)),
    cpuPctOfOneCore: {
      server: pct(after.server - before.server),
      postgres: pct(after.pg - before.pg),
      machineBusy: pct(after.machine.busy - before.machine.busy),
    },
    /** CPU per request: robust against other processes sharing the cores. */
    cpuMsPerRequest: {
      server: round(
        ((after.server - before.server) * (1000 / TICK)) / Math.max(1, result['2xx']),
        2,
      ),
      postgres: round(((after.pg - before.pg) * (1000 / TICK)) / Math.max(1, result['2xx']), 2),
    },
  };
}

type RunResult = Awaited<ReturnType<typeof measure>>;

async function runEngine(engine: Engine) {
  console.error(`[${engine}]`);
  const cleanups: Array<() => Promise<void>> = [];
  let plans: Awaited<ReturnType<typeof explainAll>> = {};
  const runs: RunResult[] = [];
  let seeded: Awaited<ReturnType<typeof seed>>;
  try {
    let server: RunningServer;
    if (engine === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      const databaseName = new URL(database.url).pathname.slice(1);
      server = await startServer({ DATABASE_URL: database.url }, databaseName);
      cleanups.unshift(() => server.stop());
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      cleanups.splice(1, 0, () => pool.end());
      const db = drizzle(pool, { casing: 'snake_case' }) as unknown as Database;
      seeded = await seed(db);
      const run = async (query: string, params: unknown[]) =>
        (await pool.query(query, params as unknown[])).rows.map((r) => String(Object.values(r)[0]));
      plans = await explainAll(
        run,
        (log) =>
          drizzle(pool, { casing: 'snake_case', logger: { logQuery: log } }) as unknown as Database,
        seeded.tenantId,
        seeded.search,
      );
      const token = await signIn(server.url);
      for (const scenario of selected(seeded.search))
        runs.push(await measure(server, token, scenario));
    } else {
      const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-list-pglite-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const handle = await openDatabase({ databaseUrl: undefined, dataDir });
      try {
        await handle.migrate();
        seeded = await seed(handle.db);
        const client = (
          handle.db as unknown as {
            $client: {
              query: (q: string, p: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>;
            };
          }
        ).$client;
        const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
        plans = await explainAll(
          async (query, params) =>
            (await client.query(query, params)).rows.map((r) => String(Object.values(r)[0])),
          (log) =>
            drizzlePglite(client as never, {
              casing: 'snake_case',
              logger: { logQuery: log },
            }) as unknown as Database,
          seeded.tenantId,
          seeded.search,
        );
      } finally {
        await handle.close();
      }
      server = await startServer({ DATA_DIR: dataDir });
      cleanups.unshift(() => server.stop());
      const token = await signIn(server.url);
      for (const scenario of selected(seeded.search))
        runs.push(await measure(server, token, scenario));
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((e) => console.error('cleanup:', e));
  }
  return { engine, search: seeded!.search, searchMatches: seeded!.searchMatches, runs, plans };
}

function verdicts(engine: string, runs: RunResult[]) {
  const by = (name: string) => runs.find((r) => r.scenario === name);
  const p1 = by('page 1');
  const deep = by('page 5000');
  const search = by('search');
  const clean = (r?: RunResult) => !!r && r.non2xx === 0 && r.errors === 0;
  return {
    engine,
    page1:
      !!p1 &&
      clean(p1) &&
      p1.requestsPerSecond >= TARGETS.page1Rps &&
      p1.latencyMs.p99 <= TARGETS.page1P99,
    page5000: !!deep && clean(deep) && deep.latencyMs.p99 <= TARGETS.deepP99,
    search: !!search && clean(search) && search.latencyMs.p99 <= TARGETS.searchP99,
  };
}

async function main() {
  if (!args['no-build']) {
    const built = spawnSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('build failed');
  }
  const engines = args.engines.split(',').map((e) => e.trim()) as Engine[];
  const results = [];
  for (const engine of engines) results.push(await runEngine(engine));

  const rows = results.flatMap((r) =>
    r.runs.map((run) => ({
      engine: r.engine,
      scenario: run.scenario,
      'req/s': run.requestsPerSecond,
      p50: run.latencyMs.p50,
      p90: run.latencyMs.p90,
      p99: run.latencyMs.p99,
      non2xx: run.non2xx,
      errors: run.errors,
      totalCount: run.firstResponse.totalCount,
      'server %': run.cpuPctOfOneCore.server,
      'pg %': run.cpuPctOfOneCore.postgres,
      'busy %': run.cpuPctOfOneCore.machineBusy,
      'srv ms/req': run.cpuMsPerRequest.server,
      'pg ms/req': run.cpuMsPerRequest.postgres,
      load1: run.loadAverageBefore[0],
    })),
  );
  console.table(rows);
  const targets = results.map((r) => verdicts(r.engine, r.runs));
  console.table(targets);
  for (const r of results) {
    for (const [name, queries] of Object.entries(r.plans)) {
      console.log(`\n--- ${r.engine} ${name}`);
      for (const q of queries) console.log(`${q.sql}\n${q.plan.join('\n')}\n`);
    }
  }
  writeFileSync(
    resultsFile,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { cpus: os.availableParallelism(), node: process.version },
        settings: {
          durationS: DURATION,
          warmupS: WARMUP,
          connections: CONNECTIONS,
          users: USERS,
          otherTenants: OTHER_TENANTS,
          otherUsers: OTHER_USERS,
        },
        targets: TARGETS,
        verdicts: targets,
        results,
      },
      null,
      2,
    ) + '\n',
  );
  console.error(`wrote ${resultsFile}`);
}

await main();
