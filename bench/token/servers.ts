/** The servers the token benchmark measures: the real one on either engine, and the floor. */
import { join } from 'node:path';
import type { Cleanups } from '../lib/cleanups';
import { freshDatabase, type Engine } from '../lib/database';
import { root } from '../lib/paths';
import { startServer, type BenchServer } from '../lib/server';
import type { Measured } from './cpu';
import { args, CORES, PG_SETTINGS, SERVER_MAIN, USER } from './settings';

export type RunningServer = BenchServer & Measured;

/** The built server (or --server) with the demo seed, on a fresh database dropped at its stop. */
export async function startEngineServer(
  engine: Engine,
  cleanups: Cleanups,
  profileDir: string | undefined,
): Promise<RunningServer> {
  const database = await freshDatabase(engine, {
    prefix: 'bench_token',
    adminUrl: args['pg-url'],
    settings: PG_SETTINGS,
  });
  cleanups.add(database.drop);
  const server = await startServer({
    env: { ...database.env, SEED_DEMO: 'true' },
    nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    script: SERVER_MAIN,
    name: `the ${engine} server`,
    cleanups,
  });
  return { ...server, pid: server.child.pid, databaseName: database.name };
}

/**
 * The floor any Node.js server stands on here: node:http parses the same form, verifies the
 * same hash with the same function and thread pool, and answers a fixed token response, with
 * no framework, database or signing. What it reaches is what this machine allows before the
 * token endpoint does any work of its own.
 */
export async function startHashOnlyServer(cleanups: Cleanups): Promise<RunningServer> {
  const server = await startServer({
    env: {
      PASSWORD: USER.password,
      // As apps/server/start.cjs sizes the pool for the real server.
      UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? String(Math.max(2, CORES)),
    },
    nodeArgs: ['--import', 'tsx'],
    script: join(root, 'bench/hash-only-server.ts'),
    name: 'the hash-only server',
    cleanups,
  });
  return { ...server, pid: server.child.pid, databaseName: undefined };
}
