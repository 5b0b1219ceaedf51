import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { seed } from '../bootstrap/seed';
import {
  adminPostgresUrl,
  createPostgresDatabase,
  pgliteTemplateOptions,
  SUPER_ADMIN_PASSWORD,
} from './database-templates';
import { freePort, isPortTaken } from './ports';

export { adminPostgresUrl, createPostgresDatabase, freePort, SUPER_ADMIN_PASSWORD };

/** Which engine this run tests: the vitest projects set TEST_DB (vitest.config.ts). */
export const engine = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestServer {
  url: string;
  config: Config;
  app: FastifyInstance;
  database: DatabaseHandle;
  /** A database URL for this test (PostgreSQL only), e.g. to start a second process on it. */
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Receives the server's log lines, as its real logger writes them (set LOG_LEVEL too). */
  logStream?: NodeJS.WritableStream;
  /** Told of every route the server adds. */
  onRoute?: (route: RouteOptions) => void;
  /** A built web console to serve; by default the checkout's build, if there is one. */
  webDist?: string | null;
}

/** Starts the real server over HTTP on a fresh database of the engine under test. */
export async function startTestServer(
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  // freePort's port may be taken by another process before the server binds it: then the
  // server is started again on another one, never left to a stranger answering there.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePort(env, options);
    } catch (error) {
      if (!isPortTaken(error) || attempt === 3) throw error;
    }
  }
}

async function startOnFreePort(
  env: Record<string, string>,
  options: TestServerOptions,
): Promise<TestServer> {
  const port = await freePort();
  const pgDatabase = engine === 'postgres' ? await createPostgresDatabase() : undefined;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    // Keycloak's quick-login check would lock test users after two quick failures.
    BRUTE_FORCE_QUICK_LOGIN_MS: '0',
    // Every test signs in from 127.0.0.1, faster than people would; limit tests lower these.
    TOKEN_RATE_LIMIT: '100000',
    TOKEN_REALM_RATE_LIMIT: '100000',
    CLIENT_SECRET_RATE_LIMIT: '100000',
    // A fixed key: the tests never write one into a data directory.
    MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...env,
    ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
  });
  const database = await openTestDatabase(config.databaseUrl, 5);
  const close = async (app?: FastifyInstance) => {
    await app?.close();
    await database.close();
    await pgDatabase?.drop();
  };
  let app: FastifyInstance | undefined;
  try {
    await seed(database.db, config);
    app = await buildApp({ config, database, ...options });
    await app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    await close(app);
    throw error;
  }
  return {
    url: config.publicUrl,
    config,
    app,
    database,
    databaseUrl: pgDatabase?.url,
    close: () => close(app),
  };
}

/** Opens and migrates a database: on PGlite a copy of the run's template, in memory. */
async function openTestDatabase(
  databaseUrl: string | undefined,
  poolSize: number,
): Promise<DatabaseHandle> {
  const database = await openDatabase({
    databaseUrl,
    dataDir: 'memory://',
    poolSize,
    ...(databaseUrl ? {} : { pglite: await pgliteTemplateOptions() }),
  });
  await database.migrate();
  return database;
}

/** A database of the engine under test, migrated and seeded, without a server. */
export interface SeededDatabase {
  database: DatabaseHandle;
  /** postgres://… of it on PostgreSQL, for a second connection; undefined on PGlite. */
  url: string | undefined;
  close(): Promise<void>;
}

/** For tests of what runs beside the routes (the mail worker, the retention job). */
export async function openSeededDatabase(config: Config, poolSize = 4): Promise<SeededDatabase> {
  const pgDatabase = engine === 'postgres' ? await createPostgresDatabase() : undefined;
  const database = await openTestDatabase(pgDatabase?.url, poolSize);
  await seed(database.db, { ...config, bootstrapAdminPassword: SUPER_ADMIN_PASSWORD });
  return {
    database,
    url: pgDatabase?.url,
    close: async () => {
      await database.close();
      await pgDatabase?.drop();
    },
  };
}

export const TEST_PASSWORD = 'Correct-horse-9!';
