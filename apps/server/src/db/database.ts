import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { migratePgliteClient, migratePostgresPool } from './migrate';

/** The one Drizzle type both engines share: services never know which one runs. */
export type Database = PgDatabase<PgQueryResultHKT>;
export type Engine = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  /**
   * Listens on a PostgreSQL channel (LISTEN/NOTIFY works on both engines). `onLost` runs if
   * the listening connection dies: notices may have been missed since.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>;
  /** The connection pool's use now (PostgreSQL); undefined on PGlite, which has no pool. */
  poolStats(): PoolStats | undefined;
  /** Applies pending migrations; safe on every start and from several processes at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, idle among them, requests waiting for one, and the most allowed. */
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** Raised when the database cannot be opened; main.ts prints it as one line. */
export class DatabaseUnavailableError extends Error {}

export interface DatabaseOptions {
  /** postgres://… ; absent means PGlite. */
  databaseUrl: string | undefined;
  /** PGlite data folder, or 'memory://' for tests. */
  dataDir: string;
  poolSize?: number;
  /**
   * More PGlite options: the tests start from a migrated data directory (`loadDataDir`) with
   * the engine compiled once per process, instead of running initdb for every database.
   */
  pglite?: Pick<
    PGliteOptions,
    'loadDataDir' | 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'
  >;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openPglite(options.dataDir, options.pglite);
}

async function openPglite(
  dataDir: string,
  more: DatabaseOptions['pglite'] = {},
): Promise<DatabaseHandle> {
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, { extensions: { pg_trgm }, ...more });
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database in ${dataDir}: ${(error as Error).message}`,
    );
  }
  return {
    db: drizzlePglite(client, { casing: 'snake_case' }) as unknown as Database,
    engine: 'pglite',
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload);
      // PGlite's unlisten takes an optional transaction: never pass anything through; and
      // after close there is nothing left to unlisten.
      return () => (client.closed ? Promise.resolve() : unlisten().catch(() => undefined));
    },
    poolStats: () => undefined,
    migrate: () => migratePgliteClient(client),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, max: number): Promise<DatabaseHandle> {
  // pg_stat_activity names each process's connections, so an operator can tell them apart.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    application_name: `tenant-console ${process.pid}`,
  });
  // A pool emits errors from idle clients (server restart); without a listener they crash the process.
  pool.on('error', () => undefined);
  // A checked-out client whose connection the server ends (a restart mid-transaction) emits
  // 'error' too: its statement still fails and the pool discards it on release, but without a
  // listener Node would end the whole process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(
      `Cannot reach the database at ${redact(url)}: ${(error as Error).message}`,
    );
  }
  const listeners = new Set<() => Promise<void>>();
  return {
    db: drizzlePg(pool, { casing: 'snake_case' }) as unknown as Database,
    engine: 'postgres',
    listen: async (channel, onPayload, onLost) => {
      const client = await pool.connect();
      let released = false;
      const lost = () => {
        if (!released) onLost?.();
      };
      // A checked-out client has no pool error listener: without one, a database restart
      // would crash the process instead of ending this listener.
      client.on('error', lost);
      client.on('end', lost);
      const handler = (message: pg.Notification) => {
        if (message.channel === channel) onPayload(message.payload ?? '');
      };
      client.on('notification', handler);
      try {
        await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      } catch (error) {
        // A database going down between connect and LISTEN: discard the client, do not leak it.
        released = true;
        client.release(error as Error);
        throw error;
      }
      const unlisten = async () => {
        if (released) return;
        released = true;
        listeners.delete(unlisten);
        client.off('notification', handler);
        client.off('end', lost);
        await client.query(`UNLISTEN "${channel.replace(/"/g, '')}"`).catch(() => undefined);
        client.release();
      };
      listeners.add(unlisten);
      return unlisten;
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max,
    }),
    migrate: () => migratePostgresPool(pool),
    // Listening clients are checked out of the pool: end them first, or pool.end() waits.
    close: async () => {
      await Promise.all([...listeners].map((unlisten) => unlisten()));
      await pool.end();
    },
  };
}

/** Hides the password of a connection URL in messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
