import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELOAD_EVENT } from '@tc/contract/events';
import { api, createSignedInTenant, uniqueName } from '../../test/fixtures';
import { SseReader } from '../../test/event-stream';
import { adminPostgresUrl, engine, startTestServer, type TestServer } from '../../test/harness';

// PostgreSQL only: PGlite runs inside the process, so its listener has no connection to lose.

let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;
let admin: pg.Client;
let databaseName: string;
const streams = new AbortController();

beforeAll(async () => {
  if (engine !== 'postgres') return;
  server = await startTestServer();
  tenant = await createSignedInTenant(server);
  databaseName = new URL(server.databaseUrl!).pathname.slice(1);
  // Outside the database under test, so that it can refuse its own connections.
  admin = new pg.Client({ connectionString: adminPostgresUrl });
  await admin.connect();
});
afterAll(async () => {
  streams.abort();
  if (databaseName) {
    await admin.query(`alter database ${databaseName} allow_connections true`).catch(() => {});
  }
  await admin?.end();
  await server?.close();
});

async function openStream(): Promise<SseReader> {
  const response = await fetch(`${server.url}/api/v1.0/events?access_token=${tenant.token}`, {
    signal: streams.signal,
  });
  expect(response.status).toBe(200);
  const stream = new SseReader(response);
  // The first blocks set the retry hint and the resume point: the stream is subscribed.
  let block = await stream.nextBlock(10_000);
  while (block && block.id === undefined) block = await stream.nextBlock(10_000);
  expect(block?.id).toBeDefined();
  return stream;
}

/** Ends the server's listening session(s); answers how many there were. */
async function cutListener(): Promise<number> {
  const cut = await admin.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
      where datname = $1 and query ilike 'LISTEN%'`,
    [databaseName],
  );
  return cut.rowCount ?? 0;
}

async function listeningSessions(): Promise<number> {
  const found = await admin.query(
    `select 1 from pg_stat_activity where datname = $1 and query ilike 'LISTEN%'`,
    [databaseName],
  );
  return found.rowCount ?? 0;
}

async function createUser(): Promise<string> {
  const created = await api(server, '/users/create', tenant.token, {
    method: 'POST',
    body: JSON.stringify({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `${uniqueName('u')}@reconnect.test`,
      roleId: tenant.memberRoleId,
    }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { data: { id: string } }).data.id;
}

describe.runIf(engine === 'postgres')('live updates after the listening connection is lost', () => {
  it('tell open streams to reload once listening again, then deliver changes live', async () => {
    const stream = await openStream();
    expect(await cutListener()).toBe(1);

    const reload = await stream.next(30_000);
    expect(reload?.event).toBe(RELOAD_EVENT);
    // The resume point moves on: here the tenant's first change is still to come.
    expect(reload?.id).toBe('0');
    expect(await listeningSessions()).toBe(1);

    const id = await createUser();
    const change = await stream.next(15_000);
    expect(JSON.parse(change!.data!)).toEqual({ entity: 'users', action: 'create', id });
  }, 120_000);

  it('keep trying while the database refuses connections, and recover when it accepts', async () => {
    const stream = await openStream();
    await admin.query(`alter database ${databaseName} allow_connections false`);
    expect(await listeningSessions()).toBe(1);
    // Every session, idle ones too: the pool would otherwise hand one to the listener again.
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [
      databaseName,
    ]);
    // Several attempts fail meanwhile (250 ms doubling); the stream stays open and quiet.
    expect(await stream.next(3000)).toBeUndefined();
    expect(await listeningSessions()).toBe(0);
    await admin.query(`alter database ${databaseName} allow_connections true`);

    // Back-off is at most 15 s (jittered), plus the time to connect on a busy machine.
    expect((await stream.next(45_000))?.event).toBe(RELOAD_EVENT);
    const id = await createUser();
    expect(JSON.parse((await stream.next(15_000))!.data!)).toMatchObject({ id });
  }, 120_000);
});
