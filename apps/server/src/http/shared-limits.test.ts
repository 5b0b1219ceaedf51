import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, engine, SUPER_ADMIN_PASSWORD } from '../test/harness';
import { startServerProcess, type ServerProcess } from '../test/server-process';

// Several server processes on one database enforce one limit, not one each: the counters
// live in PostgreSQL, or in Redis when REDIS_URL is set.

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function twoProcesses(env: Record<string, string>): Promise<ServerProcess[]> {
  const database = await createPostgresDatabase();
  cleanups.push(database.drop);
  const shared = {
    DATABASE_URL: database.url,
    BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
    PUBLIC_URL: 'http://127.0.0.1',
    ...env,
  };
  // One after the other: the first migrates and seeds, the second finds it done.
  const first = await startServerProcess(shared);
  cleanups.push(first.stop);
  const second = await startServerProcess(shared);
  cleanups.push(second.stop);
  return [first, second];
}

const passwordGrant = (server: ServerProcess) =>
  fetch(`${server.url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: 'react-client',
      grant_type: 'password',
      username: 'nobody@example.test',
      password: 'wrong',
    }),
  });

const forgotPassword = (server: ServerProcess, email: string) =>
  fetch(`${server.url}/api/v1.0/auth/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });

async function expectOneLimit(servers: ServerProcess[]) {
  // Ten password grants spread over both processes are all answered, the eleventh is not.
  for (let i = 0; i < 10; i += 1) {
    expect((await passwordGrant(servers[i % 2]!)).status).toBe(401);
  }
  for (const server of servers) {
    const limited = await passwordGrant(server);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: 'slow_down' });
  }
  // Three reset mails per address, counted across the processes.
  const statuses = [];
  for (let i = 0; i < 4; i += 1) {
    statuses.push((await forgotPassword(servers[i % 2]!, 'admin@example.com')).status);
  }
  expect(statuses).toEqual([202, 202, 202, 429]);
}

describe.runIf(engine === 'postgres')('limits shared by several processes', () => {
  it('in PostgreSQL: 10 a minute admits 10 in total, not 10 per process', async () => {
    await expectOneLimit(await twoProcesses({ TOKEN_RATE_LIMIT: '10' }));
  });

  it('in Redis when REDIS_URL is set', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    // A key space of its own, so counts of earlier runs against the same Redis do not count.
    const REDIS_KEY_PREFIX = `tc-test-${randomBytes(6).toString('hex')}:`;
    const env = { TOKEN_RATE_LIMIT: '10', REDIS_URL: redisUrl, REDIS_KEY_PREFIX };
    await expectOneLimit(await twoProcesses(env));
  });
});
