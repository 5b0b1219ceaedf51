import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { seed } from '../bootstrap/seed';
import { loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { SigningKeys } from '../identity/signing-keys';

/**
 * Every test file needs fresh databases, and making one from nothing is the slow part of a
 * test server's start: PGlite runs initdb (3-5 s on a busy 2-core machine) and both engines
 * apply every migration (0.4-0.8 s). The global set-up therefore makes one migrated database
 * per run, and each test copies it:
 * - PostgreSQL: `CREATE DATABASE … TEMPLATE`, a file copy inside the server (tens of ms);
 * - PGlite: the migrated data directory as a tar (`dumpDataDir`), loaded with `loadDataDir`,
 *   with the engine's WebAssembly compiled once per process.
 * Tests still call `migrate()` on the copy: it finds nothing to apply, and would apply a
 * migration the template lacks. Without a template (a test file run outside the set-up), a
 * database is made from nothing as before.
 *
 * The templates are also seeded the way every test server seeds its database (the master
 * realm and its super administrator, whose password costs an argon2 hash) and hold the
 * server's signing keys (an RSA key pair costs 0.2-0.3 s of CPU to generate): each of the
 * run's few hundred test servers found neither and made both again. A server's start still
 * runs both steps, which find them there; tests of a first start ask for empty databases.
 */

/** The super administrator's password on every test database. */
export const SUPER_ADMIN_PASSWORD = 'Super-secret-1!';

/** What every test server's start would add to a migrated database, added once. */
async function seedTemplate(db: Database): Promise<void> {
  const config = loadConfig({
    BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
  });
  await seed(db, config);
  await SigningKeys.open(db);
}

export const adminPostgresUrl =
  process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Where the global set-up left this run's templates (environment, inherited by workers). */
const PGLITE_TEMPLATE_ENV = 'TC_TEST_PGLITE_TEMPLATE';
const POSTGRES_TEMPLATE_ENV = 'TC_TEST_POSTGRES_TEMPLATE';
const PGLITE_TEMPLATE_DIR_ENV = 'TC_TEST_PGLITE_TEMPLATE_DIR';

const POSTGRES_RUN_ENV = 'TC_TEST_POSTGRES_RUN';

const databaseName = (prefix: string) =>
  `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;

/** Runs one statement as the administrator (databases are made and dropped outside them). */
async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminPostgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function urlOf(name: string): string {
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh PostgreSQL database (a copy of the run's template when there is one). Within a run
 * its `drop()` only closes what is still connected: PostgreSQL 15 forces an immediate
 * checkpoint for every DROP DATABASE, which writes out every other test file's dirty pages and
 * took 1-2 s a file on a busy 2-core machine (180 files, 3 workers waiting on it). The run's
 * databases are dropped together at its end (`dropRunDatabases`), where the checkpoints of
 * drops running side by side are shared.
 */
export async function createPostgresDatabase(
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const run = process.env[POSTGRES_RUN_ENV];
  const name = databaseName(run ?? 'tc_test');
  // `empty`: for a test of a first start, which migrates and seeds the database itself.
  const template = options.empty ? undefined : process.env[POSTGRES_TEMPLATE_ENV];
  await asAdmin(`create database ${name}${template ? ` template ${template}` : ''}`);
  return {
    url: urlOf(name),
    drop: () =>
      run
        ? asAdmin(
            `select pg_terminate_backend(pid) from pg_stat_activity ` +
              `where datname = '${name}' and pid <> pg_backend_pid()`,
          )
        : asAdmin(`drop database if exists ${name} with (force)`),
  };
}

/** Drops every database of this run (a few at a time), and the run's template last. */
async function dropRunDatabases(run: string, template: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminPostgresUrl });
  await client.connect();
  let names: string[];
  try {
    const found = await client.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1)`,
      [`${run}_`],
    );
    names = found.rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
  const queue = [...names];
  const dropper = async () => {
    for (let name = queue.pop(); name; name = queue.pop()) {
      await asAdmin(`drop database if exists ${name} with (force)`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, dropper));
  await asAdmin(`drop database if exists ${template} with (force)`);
}

let engineParts: Promise<Partial<PGliteOptions>> | undefined;

/** PGlite's WebAssembly and file bundle, read and compiled once per process. */
function pgliteEngineParts(): Promise<Partial<PGliteOptions>> {
  engineParts ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasm, initdbWasm, bundle] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((file) => readFile(join(dist, file))),
    );
    return {
      pgliteWasmModule: await WebAssembly.compile(pgliteWasm!),
      initdbWasmModule: await WebAssembly.compile(initdbWasm!),
      fsBundle: bytesAsBlob(bundle!),
    };
  })();
  return engineParts;
}

/**
 * Bytes in the shape PGlite reads its file bundle and `loadDataDir` in: it only asks for
 * `arrayBuffer()` (and the `type`, to tell a gzipped tar). Node 20's own Blob hands its bytes
 * out in chunks and joins them, which was a third of the CPU a test database took to open
 * (36 MB, on every open); each open gets its own copy, as PGlite keeps parts of it.
 */
function bytesAsBlob(bytes: Uint8Array): Blob {
  const copy = () => Promise.resolve(bytes.slice().buffer);
  return { type: '', size: bytes.byteLength, arrayBuffer: copy } as unknown as Blob;
}

let pgliteTemplate: Promise<Blob | undefined> | undefined;

/** Options that open an in-memory PGlite as a copy of the run's migrated template. */
export async function pgliteTemplateOptions(): Promise<Partial<PGliteOptions>> {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  pgliteTemplate ??= file ? readFile(file).then(bytesAsBlob) : undefined;
  const loadDataDir = await pgliteTemplate;
  return { ...(await pgliteEngineParts()), ...(loadDataDir ? { loadDataDir } : {}) };
}

/** Makes the run's template for one engine; the returned function removes it. */
export async function prepareTemplate(
  engine: 'pglite' | 'postgres',
  folder: string,
): Promise<() => Promise<void>> {
  if (engine === 'postgres') {
    const name = databaseName('tc_template');
    await asAdmin(`create database ${name}`);
    const database = await openDatabase({ databaseUrl: urlOf(name), dataDir: '', poolSize: 1 });
    await database.migrate();
    await seedTemplate(database.db);
    await database.close();
    process.env[POSTGRES_TEMPLATE_ENV] = name;
    // The run's test databases are named after it, so that its end finds them all.
    const run = databaseName('tc_run');
    process.env[POSTGRES_RUN_ENV] = run;
    return () => dropRunDatabases(run, name);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = await PGlite.create('memory://', {
    extensions: { pg_trgm },
    ...(await pgliteEngineParts()),
    // WAL in 1 MB segments instead of 16: the data directory every test database loads is a
    // third smaller (33 MB instead of 43).
    initDbStartParams: ['--wal-segsize=1'],
  });
  const { migratePgliteClient } = await import('../db/migrate');
  await migratePgliteClient(client);
  await seedTemplate(drizzlePglite(client, { casing: 'snake_case' }) as unknown as Database);
  // PGlite allocates and clears its shared buffers (128 MB by default) on every start, which
  // was half of the 1.4 s of CPU a test database took to open. A test database holds a few
  // hundred rows: 8 MB keeps them all (opening took 0.7 s then; less since, see bytesAsBlob).
  await client.exec(`alter system set shared_buffers = '8MB'`);
  // The tests use the database PGlite opens, "postgres"; template0 and template1, which only
  // CREATE DATABASE reads, were half of the data directory every open unpacks (30 MB -> 16).
  await client.exec(
    `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
  );
  await client.exec('drop database template0');
  await client.exec('drop database template1');
  const file = join(folder, `pglite-template-${process.pid}.tar`);
  const dump = await client.dumpDataDir('none');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  process.env[PGLITE_TEMPLATE_ENV] = file;
  // The same, as a data directory on disk, for tests that start the server as a process.
  const directory = join(folder, 'pglite-data');
  const onDisk = await PGlite.create(directory, {
    extensions: { pg_trgm },
    ...(await pgliteEngineParts()),
    loadDataDir: dump,
  });
  await onDisk.close();
  process.env[PGLITE_TEMPLATE_DIR_ENV] = directory;
  return async () => undefined;
}

/**
 * A fresh DATA_DIR for a server process on PGlite: a copy of the run's migrated template
 * directory (a file copy, where the process would run initdb and every migration, 5-10 s of
 * CPU). The caller removes it. Tests of a first start from nothing make an empty one instead.
 */
export function pgliteDataDir(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  const template = process.env[PGLITE_TEMPLATE_DIR_ENV];
  if (template) cpSync(template, directory, { recursive: true });
  return directory;
}
