/**
 * Long fuzzing: every route of the built server (a separate process, on a fresh database)
 * with the generators of `npm test`'s fuzz tests (apps/server/src/test/fuzz), 100 times their
 * runs per route. Prints each failure (a 5xx, or an error in the wrong shape) with fast-check's
 * shrunk request and seed, and the server's error log lines; exits 1 if any route failed.
 *
 *   npx tsx bench/fuzz.ts [--engine postgres|pglite] [--runs 100000] [--only text]
 *                         [--seed=n] [--no-build]
 *
 *   --runs     requests per route (default 100,000)
 *   --only     only routes whose `METHOD /path` contains this text, e.g. "users/"
 *   --seed=n   fast-check's seed, to replay a reported failure (with --only; `=` lets it be
 *              negative)
 *
 * PostgreSQL: a fresh database on BENCH_PG_URL or TEST_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/test), dropped afterwards. See bench/README.md.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';
import { seed } from '../apps/server/src/bootstrap/seed';
import {
  GOOGLE_CLIENT_ID,
  startTestIssuer,
} from '../apps/server/src/test/helpers/google-test-issuer';
import { startOpenAiMock } from '../apps/server/src/test/openai-mock';
import { createSender } from '../apps/server/src/test/fuzz/fuzz-request';
import { routeGenerators } from '../apps/server/src/test/fuzz/generators';
import { documentedRoutes, faultOf } from '../apps/server/src/test/fuzz/routes-under-test';
import { FUZZ_SERVER_ENV, googleCredentials } from '../apps/server/src/test/fuzz/setup';
import {
  createFuzzAccounts,
  prepareFuzzWorld,
  type FuzzAccounts,
} from '../apps/server/src/test/fuzz/world';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { freshDatabase, parseEngines } from './lib/database';
import { startServer, type BenchServer } from './lib/server';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    runs: { type: 'string', default: '100000' },
    only: { type: 'string', default: '' },
    seed: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const SUPER_ADMIN = { email: 'admin@example.com', password: 'Bench-admin-1!' };

/** The server's error lines (pino JSON, level 50 and up), kept to show beside a failure. */
function collectErrorLines(server: BenchServer): string[] {
  const lines: string[] = [];
  let partial = '';
  const onData = (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) if (/"level":(5|6)\d/.test(line)) lines.push(line);
  };
  server.child.stdout!.on('data', onData);
  server.child.stderr!.on('data', onData);
  return lines;
}

async function main() {
  const [engine] = parseEngines(args.engine);
  if (!args['no-build']) buildServer();
  const cleanups = new Cleanups();
  try {
    const issuer = await startTestIssuer();
    cleanups.add(() => issuer.close());
    const openAi = await startOpenAiMock();
    cleanups.add(() => openAi.close());
    const env = {
      ...FUZZ_SERVER_ENV,
      BOOTSTRAP_ADMIN_EMAIL: SUPER_ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN.password,
      GOOGLE_CLIENT_ID,
      GOOGLE_JWKS_URL: issuer.jwksUrl,
      ASSISTANT_BASE_URL: openAi.url,
      ASSISTANT_API_KEY: 'fuzz-key',
    };

    const database = await freshDatabase(engine!, { prefix: 'bench_fuzz' });
    cleanups.add(database.drop);
    let server: BenchServer;
    let accounts: FuzzAccounts;
    if (database.dataDir !== undefined) {
      // One process at a time on a PGlite folder: seed it first, then start the server on it.
      const dataDir = database.dataDir;
      const handle = await openDatabase({ databaseUrl: undefined, dataDir });
      try {
        await handle.migrate();
        await seed(handle.db, loadConfig({ ...env, DATA_DIR: dataDir, SEED_DEMO: 'false' }));
        accounts = await createFuzzAccounts(handle.db);
      } finally {
        await handle.close();
      }
      server = await startServer({ env: { ...env, ...database.env }, cleanups });
    } else {
      server = await startServer({ env: { ...env, ...database.env }, cleanups });
      const handle = await openDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 2 });
      try {
        accounts = await createFuzzAccounts(handle.db);
      } finally {
        await handle.close();
      }
    }
    const errorLines = collectErrorLines(server);

    const world = await prepareFuzzWorld({
      url: server.url,
      accounts,
      superAdmin: SUPER_ADMIN,
      googleCredentials: await googleCredentials(issuer),
    });
    const generators = routeGenerators(world);
    const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
    const undocumented = documentedRoutes(document).filter((route) => !generators[route.key]);
    for (const route of undocumented) console.log(`no generator for ${route.key}`);

    const sender = createSender(server.url);
    cleanups.add(() => sender.close());
    const runs = Number(args.runs);
    const failed: string[] = [...undocumented.map((route) => route.key)];
    const keys = Object.keys(generators).filter((key) => key.includes(args.only));
    for (const key of keys) {
      const [method, url] = key.split(' ') as [string, string];
      const started = Date.now();
      const errorsBefore = errorLines.length;
      const details = await fc.check(
        fc.asyncProperty(generators[key]!, async (request) => {
          const fault = faultOf({ method, url, key }, await sender.send(request));
          if (fault) throw new Error(fault);
        }),
        { numRuns: runs, ...(args.seed ? { seed: Number(args.seed) } : {}) },
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      if (!details.failed) {
        console.log(`ok    ${key}: ${runs} runs in ${seconds} s`);
        continue;
      }
      failed.push(key);
      console.log(`FAIL  ${key} after ${details.numRuns} runs (${seconds} s)`);
      console.log(fc.defaultReportMessage(details));
      console.log(`Error: ${String(details.errorInstance)}`);
      for (const line of errorLines.slice(errorsBefore, errorsBefore + 5)) console.log(line);
    }
    console.log(
      failed.length === 0
        ? `\nall ${keys.length} routes passed ${runs} runs each`
        : `\n${failed.length} of ${keys.length} routes failed:\n${failed.join('\n')}`,
    );
    process.exitCode = failed.length === 0 ? 0 : 1;
  } finally {
    await cleanups.run();
  }
}

await main();
