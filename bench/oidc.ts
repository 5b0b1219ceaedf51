/**
 * OpenID Connect benchmark: what the tenants' OpenID providers sustain, in one run on a fresh
 * PostgreSQL database, with the built server in its own process:
 *
 *   1. complete authorization code sign-ins (authorization request → hosted sign-in page's
 *      password step → resume → code → token exchange with PKCE) by N virtual browsers,
 *      each with its own cookies, signing in many users of a few tenants;
 *   2. password grants, same users, same concurrency (both wait on one argon2id hash, so the
 *      code flow should reach ≥ 85 % of this);
 *   3. client_credentials grants of a confidential client with a service role (autocannon);
 *   4. refresh grants, one rotating chain per connection: the code flow's (the provider's)
 *      and the password grant's (ours).
 *
 *   npx tsx bench/oidc.ts
 *
 *   --duration 10 --warmup 2   seconds per measured run (sign-ins: two halves each, ABBA)
 *   --connections 10           virtual browsers / clients / chains at once
 *   --tenants 3 --users 200    tenants, and users per tenant
 *   --step-samples 20          sign-ins one at a time, for each request's CPU cost (0: skip)
 *   --build | --no-build       rebuild apps/server/dist/main.js always / never (default: if stale)
 *   --server path              another script to run (default apps/server/start.cjs, as npm start)
 *   --commit HEAD              measure that commit's server, built in a temporary folder
 *   --only sign-ins,client-credentials,refresh-provider,refresh-password
 *   --cpu-prof                 write the server's V8 CPU profile to bench/results/profiles/
 *   --pg-url url               where to create the database (BENCH_PG_URL, TEST_PG_URL)
 *   --pg-set name=value        a PostgreSQL setting for that database (diagnostics)
 *
 * Results: a table on stdout and bench/results/oidc.json. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { hashPassword } from '../apps/server/src/identity/passwords';
import { buildServer, serverIsStale } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { freshDatabase } from './lib/database';
import { fromRoot, resultsDir, root, serverDir } from './lib/paths';
import { startServer } from './lib/server';
import { buildAtCommit } from './oidc/at-commit';
import { printReport, type Report } from './oidc/report';
import {
  checkFlows,
  clientCredentials,
  discoverApplications,
  refreshGrants,
  signIns,
  stepCosts,
  type Bench,
} from './oidc/scenarios';
import { seed } from './oidc/seed';
import {
  args,
  CONNECTIONS,
  DURATION,
  median,
  ONLY,
  PASSWORD,
  STEP_SAMPLES,
  resultsFile,
  round,
  TARGETS,
  TENANTS,
  USERS_PER_TENANT,
  WARMUP,
} from './oidc/settings';

const git = (...argv: string[]) => execFileSync('git', argv, { cwd: root }).toString().trim();

/** One argon2id hash, timed here: the yardstick of both sign-ins. */
async function hashMedianMs(count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await hashPassword(PASSWORD);
    times.push(performance.now() - started);
  }
  return round(median(times), 2);
}

async function main() {
  const cleanups = new Cleanups();
  let script = args.server ?? join(serverDir, 'start.cjs');
  let commit = git('rev-parse', 'HEAD');
  // Changes to the server not yet committed are in a working-tree build, not in the commit.
  let uncommittedServerChanges =
    git('status', '--porcelain', '--', 'apps/server/src', 'packages/contract/src') !== '';
  if (args.commit) {
    const built = buildAtCommit(args.commit);
    cleanups.add(built.remove);
    ({ script, commit } = built);
    uncommittedServerChanges = false;
  } else if (!args.server && (args.build || (!args['no-build'] && serverIsStale()))) {
    buildServer();
  }
  const profileDir = args['cpu-prof'] ? join(resultsDir, 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const loadStart = os.loadavg().map((l) => round(l, 2));
  try {
    const database = await freshDatabase('postgres', {
      prefix: 'bench_oidc',
      adminUrl: args['pg-url'],
      settings: args['pg-set'],
    });
    cleanups.add(database.drop);
    console.error(`starting ${fromRoot(script)} on ${database.name}…`);
    const server = await startServer({
      env: database.env,
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      script,
      name: 'the server',
      cleanups,
    });
    const seeded = await seed(server.url, database.url!);
    const bench: Bench = {
      url: server.url,
      watched: { pid: server.child.pid, databaseName: database.name },
      seeded,
      configs: await discoverApplications(server.url, seeded.realms),
    };
    const checks = await checkFlows(bench);
    const hashMs = await hashMedianMs(30);
    const cores = os.availableParallelism();
    const report: Report = {
      commit,
      uncommittedServerChanges,
      loadAverage: { start: loadStart, end: [] },
      hash: { medianMs: hashMs, hashBoundLimitPerSecond: round(cores / (hashMs / 1000), 1) },
    };
    if (ONLY.has('sign-ins')) {
      console.error(`\ncode flow sign-ins vs password grants, ${CONNECTIONS} browsers`);
      report.signIns = await signIns(bench);
      if (STEP_SAMPLES > 0) {
        console.error(`  CPU per request: ${STEP_SAMPLES} sign-ins one at a time`);
        report.stepCpu = await stepCosts(bench, STEP_SAMPLES);
      }
    }
    if (ONLY.has('client-credentials')) {
      console.error('\nclient_credentials');
      report.clientCredentials = await clientCredentials(bench);
    }
    if (ONLY.has('refresh-provider')) {
      console.error('\nrefresh grants of the code flow (provider)');
      report.refreshProvider = await refreshGrants(bench, 'provider');
    }
    if (ONLY.has('refresh-password')) {
      console.error('\nrefresh grants of the password grant (ours)');
      report.refreshPassword = await refreshGrants(bench, 'password');
    }
    report.loadAverage.end = os.loadavg().map((l) => round(l, 2));

    const results = {
      benchmark: 'OpenID Connect grants',
      date: new Date().toISOString(),
      ...report,
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cores,
        memoryGiB: round(os.totalmem() / 2 ** 30, 1),
        node: process.version,
      },
      settings: {
        durationSeconds: DURATION,
        warmupSeconds: WARMUP,
        connections: CONNECTIONS,
        tenants: TENANTS,
        usersPerTenant: USERS_PER_TENANT,
        server: `${fromRoot(script)} in its own process, PostgreSQL ${database.name}`,
      },
      checks,
      targets: TARGETS,
    };
    mkdirSync(dirname(resultsFile), { recursive: true });
    const json = await format(JSON.stringify(results), {
      ...(await resolveConfig(resultsFile)),
      parser: 'json',
    });
    writeFileSync(resultsFile, json);
    printReport(report);
    if (profileDir)
      console.log(`server CPU profile: ${fromRoot(profileDir)} (written at its stop)`);
  } finally {
    await cleanups.run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
