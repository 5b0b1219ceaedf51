import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, engine, freePort, SUPER_ADMIN_PASSWORD } from '../test/harness';

// `WORKERS=N npm start`: the built server (global-setup.ts builds it) as `npm start` runs it.
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const METRICS_TOKEN = 'fleet-metrics-token-8d2e61c4';
const POOL_SIZE = 3;
const REQUESTS = 12;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** One request on a connection of its own: node:cluster hands connections out in turn. */
const get = (port: number, path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.once('error', reject);
    req.end();
  });

/** A sample's value from the text format: `name{labels} value`, labels as written. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

interface Fleet {
  port: number;
  pid: number;
  databaseUrl: string;
  output(): string;
}

/** `WORKERS=2` on a database of its own; resolves once both workers report their metrics. */
async function startFleet(): Promise<Fleet> {
  const database = await createPostgresDatabase();
  cleanups.push(database.drop);
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      WORKERS: '2',
      PORT: String(port),
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      METRICS_TOKEN,
      BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
      MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'warn',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  // Both workers have registered their metrics once the pools' most allowed add up to two.
  const deadline = Date.now() + 90_000;
  for (;;) {
    expect(child.exitCode, output).toBeNull();
    const answer = await scrape(port);
    if (answer?.status === 200 && valueOf(answer.text, FLEET_MAX) === 2 * POOL_SIZE) break;
    expect(Date.now(), `${answer?.status} ${answer?.text.slice(0, 300)}`).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { port, pid: child.pid!, databaseUrl: database.url, output: () => output };
}

const FLEET_MAX = 'tenant_console_db_pool_max_connections';
const scrape = (port: number) =>
  get(port, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` }).catch(() => undefined);

/** The fleet's worker processes: the primary's children. */
const workerPids = (primary: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(primary)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);

describe.runIf(engine === 'postgres')('GET /metrics with WORKERS=2', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet();
  }, 120_000);

  it('answers the whole fleet’s metrics, whichever process is scraped', async () => {
    const { port } = fleet;
    // One message waiting in the outbox (due tomorrow: the workers leave it alone).
    const client = new pg.Client({ connectionString: fleet.databaseUrl });
    await client.connect();
    await client.query(`insert into mail_outbox
        (tenant_id, to_address, locale, subject, text_body, html_body, next_attempt_at)
      select id, 'someone@fleet.test', 'en', 'fleet', 'fleet', 'fleet', now() + interval '1 day'
      from tenants limit 1`);
    await client.end();
    for (let i = 0; i < REQUESTS; i += 1) expect((await get(port, '/healthz')).status).toBe(200);
    const healthz =
      'tenant_console_http_requests_total{method="GET",route="/healthz",status_code="200"}';
    // Scraped on fresh connections, each scrape may reach either worker: all say the sum.
    for (let i = 0; i < 4; i += 1) {
      const answer = await scrape(port);
      expect(answer?.status).toBe(200);
      expect(valueOf(answer!.text, healthz)).toBe(REQUESTS);
      expect(valueOf(answer!.text, FLEET_MAX)).toBe(2 * POOL_SIZE);
      expect(valueOf(answer!.text, 'tenant_console_fleet_workers_reporting')).toBe(2);
      // Read by each worker from the one table: the largest, not the sum of two reads.
      expect(valueOf(answer!.text, 'tenant_console_mail_outbox_messages{status="pending"}')).toBe(
        1,
      );
      // Each process is in one state: the states add up to the processes.
      const states = ['idle', 'listening', 'reconnecting'].map(
        (state) =>
          valueOf(answer!.text, `tenant_console_notification_listener_state{state="${state}"}`) ??
          0,
      );
      expect(states.reduce((sum, value) => sum + value, 0)).toBe(2);
    }
  }, 120_000);

  it('answers with the live workers and says which are missing while one does not report', async () => {
    // A stopped worker never answers the primary, as one still starting or stuck does not.
    const [stopped] = workerPids(fleet.pid);
    process.kill(stopped!, 'SIGSTOP');
    try {
      // Its own connections wait for it; scrapes that reach the other worker answer at once.
      const answer = await scrape(fleet.port);
      expect(answer?.status, fleet.output()).toBe(200);
      expect(valueOf(answer!.text, 'tenant_console_fleet_workers')).toBe(2);
      expect(valueOf(answer!.text, 'tenant_console_fleet_workers_reporting')).toBe(1);
      expect(valueOf(answer!.text, FLEET_MAX)).toBe(POOL_SIZE);
    } finally {
      process.kill(stopped!, 'SIGCONT');
    }
  }, 120_000);
});
