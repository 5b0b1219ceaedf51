import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, tokenRequest } from '../test/fixtures';
import { engine, startTestServer, type TestServer } from '../test/harness';
import { LogCapture } from '../test/log-capture';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
const log = new LogCapture();

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'info' }, { logStream: log });
}, 120_000);
afterAll(() => server?.close());

const linesOf = (reqId: string) =>
  log.lines
    .map((line) => JSON.parse(line) as { reqId?: string; msg?: string })
    .filter((line) => line.reqId === reqId);

/** Log lines are written as the answer ends; waits for the one that closes the request. */
async function completedLines(reqId: string) {
  const deadline = Date.now() + 30_000;
  while (!linesOf(reqId).some((line) => line.msg === 'request completed')) {
    if (Date.now() > deadline) throw new Error(`no completed request ${reqId} in the log`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return linesOf(reqId);
}

describe('request ids', () => {
  it('are random UUIDs, answered in x-request-id and written on the request’s log lines', async () => {
    const first = await fetch(`${server.url}/healthz`);
    const second = await fetch(`${server.url}/healthz`);
    const ids = [first, second].map((answer) => answer.headers.get('x-request-id') ?? '');
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    const lines = await completedLines(ids[0]!);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('take a well-formed x-request-id from a proxy, and replace any other', async () => {
    const sent = 'edge-7f3a.91:2';
    const kept = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': sent } });
    expect(kept.headers.get('x-request-id')).toBe(sent);
    expect((await completedLines(sent)).length).toBe(2);
    for (const refused of ['a b', 'x'.repeat(129), '<script>', 'ü', '']) {
      const answer = await fetch(`${server.url}/healthz`, {
        headers: { 'x-request-id': refused },
      });
      expect(answer.headers.get('x-request-id'), refused).toMatch(UUID);
    }
  });

  it('are answered by the OpenID provider too, whose answers bypass Fastify’s reply', async () => {
    const tenant = await createTenant(server.database.db);
    const answer = await tokenRequest(server, tenant.name, {
      grant_type: 'client_credentials',
      client_id: 'no-such-client',
      client_secret: 'no-such-secret',
    });
    expect(answer.status).toBe(401);
    const id = answer.headers.get('x-request-id') ?? '';
    expect(id).toMatch(UUID);
    expect((await completedLines(id)).length).toBeGreaterThanOrEqual(2);
  });
});

describe('the OpenID provider’s failures', () => {
  it('are logged with the id of the request they failed', async () => {
    const tenant = await createTenant(server.database.db);
    const { db } = server.database;
    // The provider reads applications from this table: without it, its lookup fails.
    await db.execute(sql`alter table clients rename to clients_hidden_by_test`);
    let answer: Response;
    try {
      answer = await tokenRequest(server, tenant.name, {
        grant_type: 'client_credentials',
        client_id: 'some-client',
        client_secret: 'some-secret',
      });
    } finally {
      await db.execute(sql`alter table clients_hidden_by_test rename to clients`);
    }
    expect(answer.status).toBe(500);
    const id = answer.headers.get('x-request-id') ?? '';
    const lines = await completedLines(id);
    expect(lines.map((line) => line.msg)).toContain('openid provider failed');
  });
});

describe.runIf(engine === 'postgres')('PostgreSQL connections', () => {
  it('name the process in pg_stat_activity', async () => {
    const { rows } = (await server.database.db.execute(
      sql`select application_name from pg_stat_activity where datname = current_database()`,
    )) as unknown as { rows: { application_name: string }[] };
    expect(rows.map((row) => row.application_name)).toContain(`tenant-console ${process.pid}`);
  });
});
