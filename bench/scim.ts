/**
 * SCIM benchmark: GET /scim/v2/<realm>/Users?filter=userName eq "…" of the built server (its
 * own process) on a PostgreSQL tenant of 1,000,000 users, the way an identity system looks a
 * user up before creating or changing it. Varied names (2,000 sampled users, each asked for
 * in a different case), a closed loop of `--connections` keep-alive clients; p50/p99 of
 * `--requests` answers after a warm-up, each checked to find exactly its user. The plan of
 * the filter's SQL is printed (it must read users_tenant_email_key, the lower(email) index).
 *
 *   npx tsx bench/scim.ts [--users 1000000] [--requests 5000] [--connections 10] [--no-build]
 *
 * See bench/README.md.
 */
import { Agent, request } from 'node:http';
import pg from 'pg';
import { digestClientSecret } from '../apps/server/src/identity/openid/client-secret';
import { buildServer } from './lib/build';
import { Cleanups } from './lib/cleanups';
import { preparedDatabase } from './mix/fixture';
import { startServer } from './lib/server';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const USERS = option('users', 1_000_000);
const REQUESTS = option('requests', 5000);
const CONNECTIONS = option('connections', 10);
const WARMUP = Math.min(1000, Math.round(REQUESTS / 5));
const REALM = 'scim1m';
const SECRET = 'bench-scim-secret-0123456789abcdefghijklmnop';

function get(agent: Agent, url: URL, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A confidential application with the Admin role as its service role (it holds `scim`). */
async function insertApplication(url: string, tenantId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into clients (tenant_id, client_id, name, type, secret_hash, grant_types)
       values ($1, 'bench-scim', 'bench-scim', 'confidential', $2, array['client_credentials'])`,
      [tenantId, digestClientSecret(SECRET)],
    );
    await client.query(
      `insert into client_service_roles (client_row_id, role_id)
       select c.id, r.id from clients c join roles r on r.tenant_id = c.tenant_id
       where c.tenant_id = $1 and c.client_id = 'bench-scim' and r.is_system and r.name = 'Admin'`,
      [tenantId],
    );
    // The statement the filter becomes (users-queries.ts), planned as the server's would be.
    const plan = await client.query(
      `explain (analyze, costs off) select count(*) from users
       where users.tenant_id = $1 and (lower(users.email) = lower($2))`,
      [tenantId, 'Nobody@Example.test'],
    );
    console.error(
      plan.rows.map((row: Record<string, string>) => `  ${row['QUERY PLAN']}`).join('\n'),
    );
  } finally {
    await client.end();
  }
}

async function main() {
  const cleanups = new Cleanups();
  try {
    if (!argv.includes('--no-build')) buildServer();
    const started = performance.now();
    const plans = [
      { name: REALM, users: USERS, projects: 0, consoleEmails: ['console1@scim1m.test'] },
    ];
    const { database, tenants } = await preparedDatabase('postgres', plans, cleanups, 'bench_scim');
    const tenant = tenants[0]!;
    console.error(
      `seeded ${tenant.userCount} users in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await insertApplication(database.url!, tenant.tenantId);
    const server = await startServer({ env: database.env, cleanups, name: 'the scim server' });
    const tokenAnswer = await fetch(`${server.url}/realms/${REALM}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`bench-scim:${SECRET}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
    const emails = tenant.users.map((user) => user.email);
    const spell = (email: string, n: number) => (n % 2 ? email.toUpperCase() : email);
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    let next = 0;
    const latencies: number[] = [];
    async function worker(total: number, keep: boolean) {
      while (next < total) {
        const n = next++;
        const email = spell(emails[n % emails.length]!, n);
        const url = new URL(`${server.url}/scim/v2/${REALM}/Users`);
        url.searchParams.set('filter', `userName eq "${email}"`);
        const began = performance.now();
        const answer = await get(agent, url, token);
        const took = performance.now() - began;
        const found = (JSON.parse(answer.body) as { totalResults?: number }).totalResults;
        if (answer.status !== 200 || found !== 1) {
          throw new Error(`${email}: ${answer.status} ${answer.body.slice(0, 300)}`);
        }
        if (keep) latencies.push(took);
      }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, () => worker(WARMUP, false)));
    next = 0;
    const measured = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, () => worker(REQUESTS, true)));
    const seconds = (performance.now() - measured) / 1000;
    latencies.sort((a, b) => a - b);
    const result = {
      users: tenant.userCount,
      requests: latencies.length,
      connections: CONNECTIONS,
      perSecond: Math.round(latencies.length / seconds),
      p50: Number(percentile(latencies, 50).toFixed(2)),
      p99: Number(percentile(latencies, 99).toFixed(2)),
      max: Number(latencies.at(-1)!.toFixed(2)),
    };
    console.log(JSON.stringify(result));
    agent.destroy();
  } finally {
    await cleanups.run();
  }
}

await main();
