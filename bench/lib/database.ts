/** A fresh database for one benchmark run, on either engine the server supports. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type Engine = 'postgres' | 'pglite';

/** The PostgreSQL server the benchmarks create their databases on. */
export const adminPostgresUrl =
  process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** `--engines postgres,pglite` as a checked list. */
export function parseEngines(list: string): Engine[] {
  return list.split(',').map((name) => {
    const engine = name.trim();
    if (engine !== 'postgres' && engine !== 'pglite') throw new Error(`unknown engine ${engine}`);
    return engine;
  });
}

export interface BenchDatabase {
  engine: Engine;
  /** What the server needs to open it: DATABASE_URL or DATA_DIR. */
  env: Record<string, string>;
  /** PostgreSQL only: its URL, and its name, which tells its backends apart in /proc. */
  url?: string;
  name?: string;
  /** PGlite only: its folder. */
  dataDir?: string;
  drop(): Promise<void>;
}

export interface DatabaseOptions {
  /** Start of the database's (or folder's) name, to recognise a leftover. */
  prefix?: string;
  adminUrl?: string;
  /** PostgreSQL settings for this database only, `name=value` (diagnostics, e.g. synchronous_commit=off). */
  settings?: string[];
}

export async function freshDatabase(
  engine: Engine,
  { prefix = 'bench', adminUrl = adminPostgresUrl, settings = [] }: DatabaseOptions = {},
): Promise<BenchDatabase> {
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(join(os.tmpdir(), `${prefix}-pglite-`));
    return {
      engine,
      env: { DATA_DIR: dataDir },
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    for (const setting of settings) {
      const [key, value] = setting.split('=');
      // Interpolated into SQL: only plain names and values.
      if (!key || value === undefined || !/^[a-z_]+$/.test(key) || !/^[\w.]+$/.test(value)) {
        throw new Error(`a PostgreSQL setting is name=value, got ${setting}`);
      }
      await admin.query(`alter database ${name} set ${key} = '${value}'`);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    engine,
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
