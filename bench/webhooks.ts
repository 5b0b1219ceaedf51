/**
 * Webhook delivery benchmark, PostgreSQL: the built server (its own process) sends to a
 * receiver on loopback (this process), which checks signatures with `standardwebhooks`.
 *
 * 1. Live: `--users` users are created through the API by `--connections` closed-loop clients;
 *    each create commits one `user.created` delivery in its transaction. Latency is from the
 *    create's answer (its transaction committed before it) to the delivery's receipt; the
 *    rate is deliveries received per second from the first create to the last receipt.
 * 2. Backlog: `--backlog` deliveries are queued in one transaction, as a burst of changes
 *    would leave them; the rate is how fast the worker drains them (first to last receipt).
 *
 *   npx tsx bench/webhooks.ts [--users 5000] [--backlog 10000] [--connections 10] [--no-build]
 *
 * See bench/README.md.
 */
import { createServer, type Server } from 'node:http';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { preparedDatabase } from './mix/fixture';
import { CONSOLE_PASSWORD } from './mix/seed';
import { passwordGrant, startServer } from './lib/server';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const USERS = option('users', 5000);
const BACKLOG = option('backlog', 10_000);
const CONNECTIONS = option('connections', 10);
const REALM = 'hooks';
const CONSOLE = `console1@${REALM}.example.test`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (n: number) => Math.round(n * 10) / 10;

/** Records each message's receipt time by entity id; verifies every 50th signature. */
class Receiver {
  readonly received = new Map<string, number>();
  secret = '';
  bad = 0;
  private server: Server | undefined;
  port = 0;
  private waiting: { count: number; resolve: () => void } | undefined;

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = performance.now();
        const body = Buffer.concat(chunks).toString();
        const { data } = JSON.parse(body) as { data: { id: string } };
        if (this.received.size % 50 === 0 && !this.verifies(body, req.headers)) this.bad++;
        if (!this.received.has(data.id)) this.received.set(data.id, at);
        res.end();
        if (this.waiting && this.received.size >= this.waiting.count) this.waiting.resolve();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  private verifies(body: string, headers: Record<string, string | string[] | undefined>) {
    try {
      new Webhook(this.secret).verify(body, headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  }

  until(count: number, timeoutMs: number): Promise<void> {
    if (this.received.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.received.size} of ${count} deliveries arrived`)),
        timeoutMs,
      );
      this.waiting = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  close() {
    return new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

function post(agent: Agent, url: string, token: string, body: unknown) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const sent = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

async function main() {
  const cleanups = new Cleanups();
  const receiver = new Receiver();
  cleanups.add(() => receiver.close());
  try {
    if (!argv.includes('--no-build')) buildServer();
    const plans = [{ name: REALM, users: 0, projects: 0, consoleEmails: [CONSOLE] }];
    const { database, tenants } = await preparedDatabase(
      'postgres',
      plans,
      cleanups,
      'bench_hooks',
    );
    const tenant = tenants[0]!;
    const server = await startServer({
      env: { ...database.env, WEBHOOK_ALLOW_PRIVATE: 'true' },
      cleanups,
      name: 'the webhooks server',
    });
    await receiver.start();
    const { access_token: token } = await passwordGrant(server.url, REALM, {
      email: CONSOLE,
      password: CONSOLE_PASSWORD,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const api = `${server.url}/api/v1.0`;
    const created = await post(agent, `${api}/webhooks/create`, token, {
      url: `http://127.0.0.1:${receiver.port}/hook`,
      eventTypes: ['user.created', 'project.*'],
    });
    if (created.status !== 201) throw new Error(`endpoint: ${created.status} ${created.text}`);
    const endpoint = (JSON.parse(created.text) as { data: { id: string; secret: string } }).data;
    receiver.secret = endpoint.secret;
    const memberRole = tenant.roles.find((role) => role.name === 'Member')!;

    // 1. Live: users created through the API.
    const committed = new Map<string, number>();
    let next = 0;
    const began = performance.now();
    async function client() {
      while (next < USERS) {
        const n = next++;
        const answer = await post(agent, `${api}/users/create`, token, {
          firstName: 'Hook',
          lastName: `User ${n}`,
          email: `hook.${n}@${REALM}.example.test`,
          roleId: memberRole.id,
        });
        if (answer.status !== 201) throw new Error(`user ${n}: ${answer.status} ${answer.text}`);
        committed.set(
          (JSON.parse(answer.text) as { data: { id: string } }).data.id,
          performance.now(),
        );
      }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, client));
    const createsDone = performance.now();
    await receiver.until(USERS, 600_000);
    const lastLive = Math.max(...receiver.received.values());
    const latencies = [...committed]
      .map(([id, at]) => receiver.received.get(id)! - at)
      .sort((a, b) => a - b);
    const live = {
      deliveries: USERS,
      connections: CONNECTIONS,
      createsPerSecond: round(USERS / ((createsDone - began) / 1000)),
      deliveriesPerSecond: round(USERS / ((lastLive - began) / 1000)),
      latencyP50Ms: round(percentile(latencies, 50)),
      latencyP99Ms: round(percentile(latencies, 99)),
      latencyMaxMs: round(latencies.at(-1)!),
    };
    console.error('live', JSON.stringify(live));

    // 2. Backlog: one transaction queues BACKLOG deliveries at once.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const queuedAt = performance.now();
    await db.query(
      `insert into webhook_deliveries (tenant_id, endpoint_id, message_id, event_type, payload)
       select $1, $2, 'msg_bench_' || n, 'project.updated',
              json_build_object('type', 'project.updated', 'timestamp', now(),
                                'data', json_build_object('id', 'backlog-' || n))::text
         from generate_series(1, $3::int) n`,
      [tenant.tenantId, endpoint.id, BACKLOG],
    );
    await db.end();
    await receiver.until(USERS + BACKLOG, 900_000);
    const backlogTimes = [...receiver.received]
      .filter(([id]) => id.startsWith('backlog-'))
      .map(([, at]) => at);
    const first = Math.min(...backlogTimes);
    const last = Math.max(...backlogTimes);
    const backlog = {
      deliveries: BACKLOG,
      drainPerSecond: round(BACKLOG / ((last - first) / 1000)),
      queuedToLastMs: round(last - queuedAt),
    };
    console.error('backlog', JSON.stringify(backlog));
    console.log(JSON.stringify({ live, backlog, badSignatures: receiver.bad }));
    agent.destroy();
  } finally {
    await cleanups.run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
