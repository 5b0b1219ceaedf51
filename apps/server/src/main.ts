import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { DatabaseUnavailableError, openDatabase, type DatabaseHandle } from './db/database';
import { seed } from './bootstrap/seed';
import { runFleet } from './fleet';
import { stopWithParent } from './parent-watch';
import { loggableError } from './http/logging';
import { standardOutputLog } from './http/standard-output-log';

/** Expected start-up failures are one clear line and exit code 1, never a stack trace. */
function fail(message: string): never {
  console.error(`Tenant Console cannot start: ${message}`);
  process.exit(1);
}

async function open(config: Config): Promise<DatabaseHandle> {
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  await database.migrate();
  return database;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (config.workers > 1 && !config.databaseUrl) {
    fail(`WORKERS=${config.workers} needs DATABASE_URL: the embedded database serves one process`);
  }
  const fleet = config.workers > 1;
  let database: DatabaseHandle;
  try {
    database = await open(config);
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) fail(error.message);
    fail(`the database could not be prepared: ${(error as Error).message}`);
  }
  stopWithParent(config.startedByNpm);
  // In a fleet the primary migrates and seeds once, prints the banner, and serves nothing.
  if (fleet && cluster.isWorker) return serve(config, database);
  const report = await seed(database.db, config);
  if (fleet) await database.close();
  else await serve(config, database);

  const lines = [
    `Tenant Console is running on ${config.publicUrl}`,
    `  database: ${database.engine === 'pglite' ? `embedded (PGlite) in ${config.dataDir}` : 'PostgreSQL'}`,
    ...(fleet ? [`  processes: ${config.workers}`] : []),
    `  super administrator: ${report.superAdminEmail}`,
  ];
  if (report.generatedPassword) {
    lines.push(`  its password (shown this once): ${report.generatedPassword}`);
  }
  if (report.demo) {
    lines.push(
      `  demo tenant: http://demo.localhost:${config.port} — ${report.demo.email} / ${report.demo.password}`,
    );
  }
  console.log(lines.join('\n'));
  if (fleet) runFleet(config.workers, (line) => console.log(line));
}

/**
 * One server process: listens until SIGTERM or SIGINT, then stops gracefully. New requests
 * get 503 with `Connection: close` and new connections are refused (Fastify's close), event
 * streams end with a retry hint (the events routes' preClose hook), requests in flight finish,
 * then the database closes. All of it is bounded by SHUTDOWN_TIMEOUT.
 */
async function serve(config: Config, database: DatabaseHandle): Promise<void> {
  const app = await buildApp({ config, database, logStream: standardOutputLog() });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C or signal: whoever sends it does not want to wait.
      app.log.warn({ signal }, 'stopping at once: a second signal arrived');
      process.exit(0);
    }
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing the requests in flight');
    // Exit code 0 even when the time runs out: the process did what the signal asked, and a
    // process manager reads a non-zero code as a crash (restarts, alerts). The line below
    // says that requests were cut short; their clients see a dropped connection.
    setTimeout(() => {
      app.log.warn(
        { timeoutMs: config.shutdownTimeoutMs },
        'stopping: requests still in flight after the shutdown timeout; exiting anyway',
      );
      process.exit(0);
    }, config.shutdownTimeoutMs).unref();
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        // Closing itself failed (not a timeout): a fault worth a non-zero code.
        (error: unknown) => {
          app.log.error({ err: loggableError(error) }, 'stopping: closing failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => fail((error as Error).message));
