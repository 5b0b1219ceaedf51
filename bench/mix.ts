/**
 * Mixed console load: many administrators, each a console of its own (own sign-in, session and
 * tokens, own keep-alive connection, a closed loop), asking what administrators ask for —
 * random pages, sorts, searches and filters of the users, roles, permissions and projects
 * lists, single rows, ~7 % edits, ~3 % token refreshes — against the built server on a seeded
 * database. In the same run: the same users page asked again and again (what a cache is best
 * at), and random users pages on the real server and on a bare node:http + pg floor answering
 * the same rows from the same database. `--solo`: one console alone over every list shape.
 *
 *   npx tsx bench/mix.ts [--scenario tenants50|tenant100k|tenant1m] [--engine postgres|pglite]
 *                        [--connections 10,50] [--duration 15] [--warmup 3]
 *                        [--runs mix,repeated,pages] [--solo | --solo-only] [--samples 30]
 *                        [--shape-budget 20]
 *                        [--users N] [--projects N] [--tenants N] [--seed 1] [--no-build]
 *                        [--server apps/server/src/main.ts]
 *   npx tsx bench/mix.ts --processes 1,2,3 [--scenario tenants50] [--connections 10,50] …
 *
 * Results: tables on stdout and bench/results/mix.json (mix-fleet.json with --processes).
 * See bench/README.md.
 */
import os from 'node:os';
import { join } from 'node:path';
import { buildServer, serverIsStale } from './lib/build';
import { Cleanups } from './lib/cleanups';
import type { Engine } from './lib/database';
import { root } from './lib/paths';
import { startServer, type BenchServer } from './lib/server';
import type { Console, Target } from './mix/console';
import { preparedDatabase } from './mix/fixture';
import { runFleet } from './mix/fleet';
import { checkFloor } from './mix/floor-check';
import { provenance, saveResult } from './mix/results-file';
import { closedLoop } from './mix/load';
import {
  errorLines,
  kindsTable,
  runsTable,
  soloTable,
  summarize,
  verdicts,
  type RunSummary,
} from './mix/report';
import {
  args,
  CONNECTIONS,
  DURATION,
  FLOOR_MAX_USERS,
  OUT,
  RUNS,
  SEED,
  selectedEngine,
  selectedScenarios,
  targetsFor,
  WARMUP,
  type Scenario,
} from './mix/settings';
import { consolesOf, plansOf } from './mix/plans';
import { soloPass, type SoloShape } from './mix/solo';
import type { Op } from './mix/requests';
import { mixOp, repeatedPageOp, usersPageOp } from './mix/workload';

async function startFloor(databaseUrl: string, cleanups: Cleanups): Promise<BenchServer> {
  return startServer({
    env: { DATABASE_URL: databaseUrl, POOL_SIZE: '10' },
    nodeArgs: ['--import', 'tsx'],
    script: join(root, 'bench/mix/floor-server.ts'),
    name: 'the floor server',
    cleanups,
  });
}

async function runScenario(scenario: Scenario, engine: Engine) {
  console.error(`[${scenario.name} on ${engine}]`);
  const cleanups = new Cleanups();
  const runs: RunSummary[] = [];
  let solo: SoloShape[] | undefined;
  try {
    const consoleCount = Math.max(1, ...CONNECTIONS);
    const started = performance.now();
    const { database, tenants } = await preparedDatabase(
      engine,
      plansOf(scenario, consoleCount),
      cleanups,
    );
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const script = args.server && join(root, args.server);
    const server = await startServer({
      env: database.env,
      cleanups,
      name: `the ${engine} server`,
      ...(script && { script, nodeArgs: script.endsWith('.ts') ? ['--import', 'tsx'] : [] }),
    });
    const real: Target = { host: '127.0.0.1', port: server.port };
    const onServer = { serverPids: [server.child.pid!], databaseName: database.name };
    const consoles = consolesOf(tenants, consoleCount);
    for (const c of consoles) {
      c.use(real);
      await c.signIn();
      c.close();
    }
    console.error(`  ${consoles.length} consoles signed in`);

    if (args.solo || args['solo-only']) {
      console.error('  one console alone, every shape:');
      consoles[0]!.use(real);
      solo = await soloPass(consoles[0]!);
      consoles[0]!.close();
    }
    // The floor pages with OFFSET: in a small tenant that is the least any server does, in a
    // tenant of 100,000 a deep page costs it a walk of the whole index, so there it is no floor.
    const floorFits = scenario.users <= FLOOR_MAX_USERS;
    if (!floorFits)
      console.error(`  no floor: ${scenario.users} users a tenant (it pages by OFFSET)`);
    const floor =
      !args['solo-only'] && RUNS.has('pages') && database.url && floorFits
        ? await startFloor(database.url, cleanups)
        : undefined;
    const floorTarget = floor && { host: '127.0.0.1', port: floor.port };
    const floorCheck = floorTarget && (await checkFloor(consoles[0]!, real, floorTarget));
    if (floorCheck) {
      console.error(
        `  the floor answered ${floorCheck.same} of ${floorCheck.compared} pages as the server`,
      );
      for (const difference of floorCheck.differences) console.error(`    ${difference}`);
    }

    /** `stream`: which random choices; the same stream sends the same requests. */
    const measure = async (
      name: string,
      stream: number,
      group: Console[],
      target: Target,
      op: (c: Console) => Op,
      measured = onServer,
    ) => {
      for (const c of group) {
        c.totals.clear();
        c.reseed(SEED * 1000 + stream);
      }
      const load = os.loadavg()[0]!;
      console.error(`  ${name}, ${group.length} consoles, ${DURATION} s (load ${load.toFixed(2)})`);
      const result = await closedLoop(group, target, op, {
        warmupS: WARMUP,
        durationS: DURATION,
        measured,
      });
      runs.push({
        ...summarize(name, result, engine),
        loadAverage1m: Math.round(load * 100) / 100,
      });
    };
    for (const connections of args['solo-only'] ? [] : CONNECTIONS) {
      const group = consoles.slice(0, connections);
      if (RUNS.has('mix')) await measure('mix', 1, group, real, mixOp);
      if (RUNS.has('repeated')) await measure('repeated page', 2, group, real, repeatedPageOp);
      if (RUNS.has('pages')) {
        await measure('users pages', 3, group, real, usersPageOp);
        if (floor && floorTarget) {
          const onFloor = { serverPids: [floor.child.pid!], databaseName: database.name };
          // The same stream: the same requests as the real server's run.
          await measure('users pages (floor)', 3, group, floorTarget, usersPageOp, onFloor);
        }
      }
    }
    const failed = [
      ...runs.flatMap((r) => Object.keys(r.statuses)),
      ...(solo ?? []).flatMap((s) => Object.keys(s.errorSamples)),
    ];
    if (failed.some((status) => status.startsWith('5'))) {
      console.error(
        `  the server answered 5xx; the end of what it printed:\n${server.output().slice(-3000)}`,
      );
    }
    const targets = targetsFor(scenario.name, engine);
    const judged = verdicts(targets, runs, solo);
    return {
      scenario: scenario.name,
      engine,
      sizes: { ...scenario, consoles: consoleCount },
      seedSeconds,
      floorCheck,
      targets,
      verdicts: judged,
      runs,
      solo,
    };
  } finally {
    await cleanups.run();
  }
}

function print(result: Awaited<ReturnType<typeof runScenario>>) {
  const { scenario, engine, sizes } = result;
  console.log(`\n=== ${scenario} on ${engine}: ${sizes.tenants} × ${sizes.users} users`);
  if (result.runs.length > 0) console.log(runsTable(result.runs));
  for (const run of result.runs) {
    const lines = errorLines(run);
    if (lines.length > 0)
      console.log(`\n${run.run} at ${run.consoles} consoles, non-2xx:\n${lines.join('\n')}`);
  }
  for (const run of result.runs.filter((r) => r.run === 'mix')) {
    console.log(`\nmix at ${run.consoles} consoles, by request:`);
    console.log(kindsTable(run));
  }
  if (result.solo) {
    console.log(`\none console alone:\n${soloTable(result.solo)}`);
    for (const shape of result.solo) {
      for (const [status, text] of Object.entries(shape.errorSamples)) {
        console.log(`  ${shape.shape} ${status}: ${text.slice(0, 160)}`);
      }
    }
  }
  if (result.floorCheck) {
    const { same, compared } = result.floorCheck;
    console.log(`\nthe floor answered ${same} of ${compared} random users pages as the server did`);
  }
  for (const verdict of result.verdicts) {
    console.log(`${verdict.met ? 'met    ' : 'NOT met'}  ${verdict.target}: ${verdict.figure}`);
  }
}

async function main() {
  const engine = selectedEngine();
  if (!args['no-build'] && !args.server && serverIsStale()) buildServer();
  const settings = {
    connections: CONNECTIONS,
    durationS: DURATION,
    warmupS: WARMUP,
    seed: SEED,
    runs: [...RUNS],
    server: args.server ?? 'apps/server/dist/main.js',
  };
  for (const scenario of selectedScenarios()) {
    const measured = provenance();
    const loadAverageBefore = os.loadavg().map((load) => Math.round(load * 100) / 100);
    const result = await runScenario(scenario, engine);
    print(result);
    saveResult(OUT, { ...result, ...measured, loadAverageBefore, settings });
  }
  console.error(`wrote ${OUT}`);
}

// --processes: the same mix through nginx in front of several processes (bench/mix/fleet.ts).
await (args.processes ? runFleet() : main());
