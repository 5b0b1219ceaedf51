import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance, RouteOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { seed } from '../bootstrap/seed';

/** Which engine this run tests: the vitest projects set TEST_DB (vitest.config.ts). */
export const engine = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
export const adminPostgresUrl =
  process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestServer {
  url: string;
  config: Config;
  app: FastifyInstance;
  database: DatabaseHandle;
  /** A database URL for this test (PostgreSQL only), e.g. to start a second process on it. */
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A fresh, empty PostgreSQL database, so repeated and parallel runs never collide. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tc_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminPostgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminPostgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
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
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: 'memory://',
    poolSize: 5,
  });
  await database.migrate();
  await seed(database.db, config);
  const app = await buildApp({ config, database, ...options });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: config.publicUrl,
    config,
    app,
    database,
    databaseUrl: pgDatabase?.url,
    close: async () => {
      await app.close();
      await database.close();
      await pgDatabase?.drop();
    },
  };
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
  const database = await openDatabase({
    databaseUrl: pgDatabase?.url,
    dataDir: 'memory://',
    poolSize,
  });
  await database.migrate();
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

export const SUPER_ADMIN_PASSWORD = 'Super-secret-1!';
export const TEST_PASSWORD = 'Correct-horse-9!';
