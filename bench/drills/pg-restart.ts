/**
 * PostgreSQL outage drill: a server runs on a PostgreSQL cluster of its own while clients
 * sign in, list and create users and an event stream is open; the cluster is stopped for a
 * few seconds (or restarted) and started again. Then: during the outage the server answered
 * 503 or succeeded, never another 5xx, and no request waited beyond a bound; afterwards
 * sign-in, lists and live updates work again without restarting the server.
 *
 *   npx tsx bench/drills/pg-restart.ts [--port 5499] [--mode stop|restart] [--outage 5]
 *     [--clients 4] [--before 5] [--after 15] [--bound 10]
 *
 * Needs root (pg_createcluster, pg_ctlcluster) and a built server. See bench/drills/README.md.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/database';
import { provisionTenant } from '../../apps/server/src/modules/tenants/provisioning';
import { insertUser } from '../../apps/server/src/modules/users/queries';
import { buildServer, serverIsStale } from '../lib/build';
import { Cleanups } from '../lib/cleanups';
import { passwordGrant, startServer } from '../lib/server';
import { table } from '../lib/table';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '5499' },
    mode: { type: 'string', default: 'stop' },
    outage: { type: 'string', default: '5' },
    clients: { type: 'string', default: '4' },
    before: { type: 'string', default: '5' },
    after: { type: 'string', default: '15' },
    bound: { type: 'string', default: '10' },
  },
});
const PORT = Number(args.port);
const BOUND_MS = Number(args.bound) * 1000;
// The tenant's administrator: the super administrator manages tenants, not their users.
const ADMIN = { email: 'admin@pg-drill.example.test', password: 'Drill-admin-2026!' };
const REALM = 'pgdrill';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Operation = 'sign-in' | 'list' | 'create';
interface Outcome {
  operation: Operation;
  /** HTTP status, or the network error's code. */
  status: number | string;
  started: number;
  ms: number;
}

const version = readdirSync('/etc/postgresql').sort().at(-1)!;
const cluster = `drill${PORT}`;
// Not execFileSync: the clients run on this event loop and would be held up with it.
const pgCtl = (action: string) => promisify(execFile)('pg_ctlcluster', [version, cluster, action]);

function createCluster(cleanups: Cleanups): string {
  execFileSync(
    'pg_createcluster',
    [
      version,
      cluster,
      '-p',
      String(PORT),
      '--start',
      '--',
      '--auth-host=trust',
      '--auth-local=trust',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  cleanups.add(() => execFileSync('pg_dropcluster', ['--stop', version, cluster]));
  return `postgres://postgres@127.0.0.1:${PORT}`;
}

interface StreamLog {
  /** Changes delivered: the entity's id and when it arrived. */
  changes: Array<{ id: string; at: number }>;
  reloads: number;
  reconnects: number;
  close(): void;
}

/** An event stream read as EventSource reads it: it reconnects with Last-Event-ID after `retry:`. */
function openStream(api: string, token: string): StreamLog {
  const log: StreamLog = {
    changes: [],
    reloads: 0,
    reconnects: 0,
    close: () => controller.abort(),
  };
  const controller = new AbortController();
  let lastEventId = '';
  let retryMs = 3000;
  const read = async () => {
    const query = new URLSearchParams({ access_token: token });
    if (lastEventId) query.set('lastEventId', lastEventId);
    const response = await fetch(`${api}/events?${query}`, { signal: controller.signal });
    if (response.status !== 200) return void (await response.arrayBuffer());
    let buffer = '';
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffer += chunk.value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const fields = new Map(
          buffer
            .slice(0, end)
            .split('\n')
            .map((line) => [line.split(':')[0]!, line.slice(line.indexOf(':') + 1).trim()]),
        );
        buffer = buffer.slice(end + 2);
        if (fields.has('retry')) retryMs = Number(fields.get('retry'));
        if (fields.has('id')) lastEventId = fields.get('id')!;
        if (fields.get('event') === 'reload') log.reloads++;
        else if (fields.has('data')) {
          log.changes.push({
            id: (JSON.parse(fields.get('data')!) as { id: string }).id,
            at: Date.now(),
          });
        }
      }
    }
  };
  void (async () => {
    while (!controller.signal.aborted) {
      await read().catch(() => undefined);
      if (controller.signal.aborted) return;
      log.reconnects++;
      await sleep(retryMs);
    }
  })();
  return log;
}

/** A tenant and its administrator, written before the server starts; answers a role for new users. */
async function seedTenant(databaseUrl: string): Promise<string> {
  const handle = await openDatabase({ databaseUrl, dataDir: '', poolSize: 1 });
  try {
    await handle.migrate();
    return await handle.db.transaction(async (tx) => {
      const tenant = await provisionTenant(tx, { name: REALM, domain: 'pg-drill.example.test' });
      await insertUser(tx, {
        tenantId: tenant.tenantId,
        email: ADMIN.email,
        firstName: 'Drill',
        lastName: 'Admin',
        roleId: tenant.adminRoleId,
        password: ADMIN.password,
      });
      return tenant.memberRoleId;
    });
  } finally {
    await handle.close();
  }
}

async function main() {
  const cleanups = new Cleanups();
  try {
    if (serverIsStale()) buildServer();
    const base = createCluster(cleanups);
    const admin = new pg.Client({ connectionString: `${base}/postgres` });
    await admin.connect();
    await admin.query('create database drill');
    await admin.end();
    const roleId = await seedTenant(`${base}/drill`);
    const server = await startServer({ env: { DATABASE_URL: `${base}/drill` }, cleanups });
    const api = `${server.url}/api/v1.0`;
    const token = (await passwordGrant(server.url, REALM, ADMIN)).access_token;
    const authorized = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const stream: StreamLog = openStream(api, token);
    const outcomes: Outcome[] = [];
    const created = new Map<string, number>();
    let counter = 0;
    const operations: Record<Operation, () => Promise<Response>> = {
      'sign-in': () =>
        fetch(`${server.url}/realms/${REALM}/protocol/openid-connect/token`, {
          method: 'POST',
          body: new URLSearchParams({
            client_id: 'react-client',
            grant_type: 'password',
            username: ADMIN.email,
            password: ADMIN.password,
          }),
          signal: AbortSignal.timeout(60_000),
        }),
      list: () =>
        fetch(`${api}/users/page`, {
          method: 'POST',
          headers: authorized,
          body: JSON.stringify({ pageSize: 20 }),
          signal: AbortSignal.timeout(60_000),
        }),
      create: () =>
        fetch(`${api}/users/create`, {
          method: 'POST',
          headers: authorized,
          body: JSON.stringify({
            firstName: 'Drill',
            lastName: `User ${++counter}`,
            email: `drill${counter}-${Date.now()}@drill.test`,
            roleId,
          }),
          signal: AbortSignal.timeout(60_000),
        }),
    };
    let running = true;
    const client = async (index: number) => {
      const order: Operation[] = ['list', 'create', 'sign-in'];
      for (let i = index; running; i++) {
        const operation = order[i % order.length]!;
        const started = Date.now();
        let status: number | string;
        try {
          const response = await operations[operation]();
          status = response.status;
          const body = await response.text();
          if (operation === 'create' && status === 201) {
            created.set((JSON.parse(body) as { data: { id: string } }).data.id, Date.now());
          }
        } catch (error) {
          const cause = (error as Error & { cause?: { code?: string } }).cause;
          status = cause?.code ?? (error as Error).name;
        }
        outcomes.push({ operation, status, started, ms: Date.now() - started });
        // Frugal: the machine is shared; a console does not hammer either.
        await sleep(25);
      }
    };
    const clients = Array.from({ length: Number(args.clients) }, (_, i) => client(i));

    await sleep(Number(args.before) * 1000);
    const down = Date.now();
    if (args.mode === 'restart') {
      await pgCtl('restart');
    } else {
      await pgCtl('stop');
      await sleep(Number(args.outage) * 1000);
      await pgCtl('start');
    }
    const up = Date.now();
    console.error(`PostgreSQL was away for ${up - down} ms (${args.mode})`);
    await sleep(Number(args.after) * 1000);
    running = false;
    await Promise.all(clients);
    stream.close();

    const alive = server.child.exitCode === null && server.child.signalCode === null;
    report(outcomes, stream, created, down, up, alive);
    if (!alive) console.log(`the server's last output:\n${server.output().slice(-3000)}`);
  } finally {
    await cleanups.run();
  }
}

function report(
  outcomes: Outcome[],
  stream: StreamLog,
  created: Map<string, number>,
  down: number,
  up: number,
  alive: boolean,
) {
  const phase = (o: Outcome) => (o.started < down ? 'before' : o.started < up ? 'outage' : 'after');
  const statuses = [...new Set(outcomes.map((o) => String(o.status)))].sort();
  const rows = [['phase', 'requests', ...statuses, 'longest ms']];
  for (const name of ['before', 'outage', 'after']) {
    const inPhase = outcomes.filter((o) => phase(o) === name);
    rows.push([
      name,
      String(inPhase.length),
      ...statuses.map((s) => String(inPhase.filter((o) => String(o.status) === s).length)),
      String(Math.max(0, ...inPhase.map((o) => o.ms))),
    ]);
  }
  console.log(table(rows));

  const firstOk = (operation: Operation) =>
    outcomes
      .filter((o) => o.operation === operation && o.started >= up && o.status !== 503)
      .find((o) => typeof o.status === 'number' && o.status < 300);
  const recovery = (o: Outcome | undefined) => (o ? `${o.started + o.ms - up} ms` : 'never');
  // A change is live when the stream delivers it: the first one created after PostgreSQL was back.
  const live = stream.changes
    .filter((c) => (created.get(c.id) ?? 0) >= up)
    .sort((a, b) => a.at - b.at)[0];
  const bad = outcomes.filter(
    (o) => typeof o.status === 'string' || (o.status >= 500 && o.status !== 503) || o.ms > BOUND_MS,
  );
  console.log(
    table([
      ['after PostgreSQL was back', 'figure'],
      ['first sign-in answered 200', recovery(firstOk('sign-in'))],
      ['first list answered 200', recovery(firstOk('list'))],
      ['first change delivered live', live ? `${live.at - up} ms` : 'never'],
      ['reload events on the stream', String(stream.reloads)],
      ['stream reconnections', String(stream.reconnects)],
      ['server process still running', String(alive)],
      [`not 503, 5xx, failed or over ${BOUND_MS / 1000} s`, String(bad.length)],
    ]),
  );
  for (const o of bad.slice(0, 10))
    console.log(`  ${phase(o)} ${o.operation} ${o.status} ${o.ms} ms`);
  const ok = alive && bad.length === 0 && firstOk('sign-in') && firstOk('list') && live;
  console.log(ok ? 'drill passed' : 'drill FAILED');
  process.exitCode = ok ? 0 : 1;
}

await main();
