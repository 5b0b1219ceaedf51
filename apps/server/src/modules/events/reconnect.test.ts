import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELOAD_EVENT } from '@tc/contract/events';
import { api, createSignedInTenant, uniqueName } from '../../test/fixtures';
import { adminPostgresUrl, engine, startTestServer, type TestServer } from '../../test/harness';

// PostgreSQL only: PGlite runs inside the process, so its listener has no connection to lose.

interface Block {
  id?: string;
  event?: string;
  data?: string;
}

/** The blocks of a server-sent event stream, read over fetch as they arrive. */
class StreamBlocks {
  readonly #reader: ReadableStreamDefaultReader<string>;
  #pending: Promise<ReadableStreamReadResult<string>> | undefined;
  #buffer = '';

  constructor(response: Response) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next block that is not a comment, or undefined after `timeoutMs` or at the end. */
  async next(timeoutMs: number): Promise<Block | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end >= 0) {
        const text = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const block: Block = {};
        for (const line of text.split('\n')) {
          const [field, ...rest] = line.split(':');
          if (field === 'id' || field === 'event' || field === 'data') {
            block[field] = rest.join(':').replace(/^ /, '');
          }
        }
        if (Object.keys(block).length > 0) return block;
        continue;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      this.#pending ??= this.#reader.read();
      const result = await Promise.race([
        this.#pending,
        new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), remaining)),
      ]);
      if (result === 'timeout') return undefined;
      this.#pending = undefined;
      if (result.done) return undefined;
      this.#buffer += result.value;
    }
  }

  /** The next block with data, skipping id-only ones. */
  async nextEvent(timeoutMs: number): Promise<Block | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const block = await this.next(Math.max(0, deadline - Date.now()));
      if (!block || block.data !== undefined) return block;
    }
  }
}

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

async function openStream(): Promise<StreamBlocks> {
  const response = await fetch(`${server.url}/api/v1.0/events?access_token=${tenant.token}`, {
    signal: streams.signal,
  });
  expect(response.status).toBe(200);
  const blocks = new StreamBlocks(response);
  // The first block sets the resume point: the stream is subscribed.
  expect((await blocks.next(10_000))?.id).toBeDefined();
  return blocks;
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

    const reload = await stream.nextEvent(30_000);
    expect(reload?.event).toBe(RELOAD_EVENT);
    // The resume point moves on: here the tenant's first change is still to come.
    expect(reload?.id).toBe('0');
    expect(await listeningSessions()).toBe(1);

    const id = await createUser();
    const change = await stream.nextEvent(15_000);
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
    expect(await stream.nextEvent(3000)).toBeUndefined();
    expect(await listeningSessions()).toBe(0);
    await admin.query(`alter database ${databaseName} allow_connections true`);

    // Back-off is at most 15 s (jittered), plus the time to connect on a busy machine.
    expect((await stream.nextEvent(45_000))?.event).toBe(RELOAD_EVENT);
    const id = await createUser();
    expect(JSON.parse((await stream.nextEvent(15_000))!.data!)).toMatchObject({ id });
  }, 120_000);
});
