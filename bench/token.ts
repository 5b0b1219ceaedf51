/**
 * Token endpoint benchmark: password-grant and refresh-grant throughput of the built server
 * (a separate process, so autocannon and the server never share an event loop), on PGlite
 * and on PostgreSQL, set against the cost of one argon2id hash.
 *
 *   npx tsx bench/token.ts
 *
 *   --engines pglite,postgres   which databases (PostgreSQL: a fresh database on --pg-url,
 *                               default postgres://postgres@127.0.0.1:5432/test, dropped after)
 *   --duration 10 --warmup 2    seconds per measured run, and of the unmeasured run before it
 *   --connections 10            autocannon connections
 *   --hash-samples 50           hashes timed one after the other for the hash-bound limit
 *   --idle-wait 300 --attempts 3  wait for an idle machine; redo a run another process disturbed
 *   --build | --no-build        rebuild apps/server/dist/main.js always / never (default: if stale)
 *   --server path/to/main.js    measure another build (e.g. a patched copy) instead
 *   --cpu-prof                  write the server's V8 CPU profile to bench/results/profiles/
 *   --no-hash-only              skip the floor: the same load on node:http + the hash alone
 *   --pg-set name=value         a PostgreSQL setting for the benchmark database (diagnostics)
 *
 * Results: a table on stdout and bench/results/token.json. See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { buildServer, serverIsStale } from './lib/build';
import type { Engine } from './lib/database';
import { fromRoot, resultsDir, root } from './lib/paths';
import { waitForIdle } from './token/cpu';
import { measureHash } from './token/hash';
import { printReport } from './token/report';
import { benchEngine, benchHashOnlyServer, type EngineResult } from './token/runs';
import {
  args,
  CONNECTIONS,
  CORES,
  DURATION,
  ENGINES,
  HASH_SAMPLES,
  PG_SETTINGS,
  REALM,
  resultsFile,
  round,
  SERVER_MAIN,
  TARGETS,
  WARMUP,
} from './token/settings';

async function main() {
  if (!args.server && (args.build || (!args['no-build'] && serverIsStale()))) buildServer();
  const profileDir = args['cpu-prof'] ? join(resultsDir, 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const busyBeforePct = await waitForIdle('the hash measurement');
  console.error(`measuring ${HASH_SAMPLES} argon2id hashes…`);
  const hash = await measureHash();
  const limit = hash.hashBoundLimitPerSecond;
  console.error(
    `one hash: median ${hash.medianMs} ms, mean ${hash.meanMs} ms → hash-bound limit ${limit}/s`,
  );

  const engines: Partial<Record<Engine, EngineResult>> = {};
  const ceiling = Math.max(...Object.values(hash.parallelHashesPerSecond));
  const hashOnly = args['no-hash-only'] ? undefined : await benchHashOnlyServer(limit, ceiling);
  for (const engine of ENGINES) {
    engines[engine] = await benchEngine(engine, limit, ceiling, profileDir);
  }

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
      postgresSettings: PG_SETTINGS,
      server: `${fromRoot(SERVER_MAIN)} in its own process, LOG_LEVEL=warn`,
    },
    hash,
    /** node:http + the hash and nothing else, under the same load: the floor (--no-hash-only skips it). */
    hashOnlyServer: hashOnly,
    engines,
    targets,
  };
  mkdirSync(dirname(resultsFile), { recursive: true });
  const json = await format(JSON.stringify(results), {
    ...(await resolveConfig(resultsFile)),
    parser: 'json',
  });
  writeFileSync(resultsFile, json);

  printReport(results);
  if (profileDir) console.log(`server CPU profiles: ${fromRoot(profileDir)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
