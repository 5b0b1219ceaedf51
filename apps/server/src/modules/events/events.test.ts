import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../db/schema/audit';
import { createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import {
  engine,
  freePort,
  startTestServer,
  SUPER_ADMIN_PASSWORD,
  TEST_PASSWORD,
  type TestServer,
} from '../../test/harness';
import { SseReader } from '../../test/event-stream';
import { recordChange, type Change } from '../audit/record';
import { BEFORE_FIRST_EVENT, clientEventId, REPLAY_LIMIT } from './service';

const readers: SseReader[] = [];
const children: ChildProcess[] = [];
let server: TestServer;
let a: TenantFixture;
let b: TenantFixture;
let tokenA: string;
let tokenB: string;

type ConnectOptions = {
  token?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
};

function connect(base: string, options: ConnectOptions, signal?: AbortSignal) {
  const url = new URL(`${base}/api/v1.0/events`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  return fetch(url, { headers, signal: signal ?? AbortSignal.timeout(10_000) });
}

/** Opens a stream; the server sends the headers once the subscription is in place. */
async function listen(base: string, options: ConnectOptions): Promise<SseReader> {
  const controller = new AbortController();
  const response = await connect(base, options, controller.signal);
  expect(response.status).toBe(200);
  const reader = new SseReader(response, controller);
  readers.push(reader);
  return reader;
}

let counter = 0;
function change(tenant: TenantFixture, entityId = `p${++counter}`): Change {
  return {
    tenantId: tenant.tenantId,
    actorId: tenant.adminId,
    entity: 'projects',
    action: 'create',
    entityId,
  };
}

const record = (target: TestServer, ...changes: Change[]) =>
  target.database.db.transaction(async (tx) => {
    for (const item of changes) await recordChange(tx, item);
  });

/** The ids a client sees for the tenant's events, newest first. */
async function eventIdsOf(tenant: TenantFixture): Promise<string[]> {
  const rows = await server.database.db
    .select({ publicId: events.publicId })
    .from(events)
    .where(eq(events.tenantId, tenant.tenantId))
    .orderBy(desc(events.id));
  return rows.map((row) => clientEventId(row.publicId));
}

const lastEventIdOf = async (tenant: TenantFixture) =>
  (await eventIdsOf(tenant))[0] ?? BEFORE_FIRST_EVENT;

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.database.db);
  b = await createTenant(server.database.db);
  tokenA = (await signIn(server, a.name, a.adminEmail, TEST_PASSWORD)).access_token;
  tokenB = (await signIn(server, b.name, b.adminEmail, TEST_PASSWORD)).access_token;
});

let closed = false;
afterAll(async () => {
  for (const reader of readers) reader.close();
  for (const child of children) child.kill('SIGTERM');
  if (!closed) await server?.close();
});

describe('GET /events', () => {
  it('answers 401 problem+json without a token or with a bad one', async () => {
    for (const options of [{}, { token: 'nonsense' }, { query: { access_token: 'nonsense' } }]) {
      const response = await connect(server.url, options);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(await response.json()).toMatchObject({ status: 401 });
    }
  });

  it("streams the caller's tenant's changes and never another tenant's", async () => {
    const streamA = await listen(server.url, { token: tokenA });
    const headers = streamA.response.headers;
    expect(headers.get('content-type')).toContain('text/event-stream');
    expect(headers.get('cache-control')).toContain('no-cache');
    expect(headers.get('x-accel-buffering')).toBe('no');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    const streamB = await listen(server.url, { query: { access_token: tokenB } });
    // Both are subscribed once their resume point has arrived.
    await streamA.next(300);
    await streamB.next(300);
    expect(streamA.blocks[0]).toMatchObject({ retry: '3000' });
    expect(streamA.blocks[1]?.id).toBe(await lastEventIdOf(a));

    await record(server, change(b, 'only-for-b'));
    await record(server, change(a, 'only-for-a'));
    const gotA = await streamA.next();
    expect(JSON.parse(gotA!.data!)).toEqual({
      entity: 'projects',
      action: 'create',
      id: 'only-for-a',
    });
    expect(gotA!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(gotA!.id).toBe(await lastEventIdOf(a));
    expect(await streamA.next(500)).toBeUndefined();
    const gotB = await streamB.next();
    expect(JSON.parse(gotB!.data!)).toMatchObject({ id: 'only-for-b' });
    expect(await streamB.next(500)).toBeUndefined();
  });

  it('sends nothing for a change rolled back with its transaction', async () => {
    const stream = await listen(server.url, { token: tokenA });
    await expect(
      server.database.db.transaction(async (tx) => {
        await recordChange(tx, change(a, 'rolled-back'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await record(server, change(a, 'committed'));
    expect(JSON.parse((await stream.next())!.data!)).toMatchObject({ id: 'committed' });
    expect(await stream.next(500)).toBeUndefined();
  });

  it('replays what a reconnecting client missed (Last-Event-ID header or query)', async () => {
    const last = await lastEventIdOf(a);
    await record(server, change(a, 'missed-1'), change(b, 'not-mine'), change(a, 'missed-2'));
    const options = [
      { token: tokenA, headers: { 'last-event-id': last } },
      { token: tokenA, query: { lastEventId: last } },
    ];
    const expected = ['missed-1', 'missed-2'];
    for (const [i, option] of options.entries()) {
      const stream = await listen(server.url, option);
      const replayed = [];
      while (replayed.length < expected.length) replayed.push(await stream.next());
      expect(replayed.map((block) => JSON.parse(block!.data!).id)).toEqual(expected);
      // Each replayed change keeps the id it was first sent with.
      const ids = await eventIdsOf(a);
      expect(replayed.map((block) => block!.id)).toEqual(ids.slice(0, ids.indexOf(last)).reverse());
      expect(await stream.next(300)).toBeUndefined();
      // Live changes follow the replay.
      await record(server, change(a, `live-${i}`));
      expect(JSON.parse((await stream.next())!.data!)).toMatchObject({ id: `live-${i}` });
      expected.push(`live-${i}`);
      stream.close();
    }
  });

  it('tells the client to reload when its id is not a kept event of its tenant', async () => {
    const c = await createTenant(server.database.db);
    const token = (await signIn(server, c.name, c.adminEmail, TEST_PASSWORD)).access_token;
    const changes = ['old-1', 'old-2', 'kept-1', 'kept-2'].map((id) => change(c, id));
    await record(server, ...changes);
    const [kept2, kept1, old2, old1] = await eventIdsOf(c);
    // Pruning removed the two oldest changes.
    const pruned = await server.database.db
      .select({ id: events.id })
      .from(events)
      .where(inArray(events.entityId, ['old-1', 'old-2']));
    await server.database.db.delete(events).where(
      inArray(
        events.id,
        pruned.map((row) => row.id),
      ),
    );
    const otherTenants = await lastEventIdOf(a);
    for (const id of [old1!, old2!, 'garbage', 'f'.repeat(32), otherTenants]) {
      const stream = await listen(server.url, { token, headers: { 'last-event-id': id } });
      const block = await stream.next();
      expect(block).toMatchObject({ event: 'reload', data: '{}' });
      // The resume point moves past the gap, to the newest change.
      expect(block!.id).toBe(kept2);
      stream.close();
    }
    // From a kept change, what followed it is replayed.
    const stream = await listen(server.url, { token, headers: { 'last-event-id': kept1! } });
    expect(await stream.next()).toMatchObject({
      id: kept2,
      data: expect.stringContaining('kept-2'),
    });
    stream.close();
  });

  it('tells the client to reload when it missed too much', async () => {
    const c = await createTenant(server.database.db);
    const token = (await signIn(server, c.name, c.adminEmail, TEST_PASSWORD)).access_token;
    const last = await lastEventIdOf(c);
    expect(last).toBe(BEFORE_FIRST_EVENT);
    await server.database.db.insert(events).values(
      Array.from({ length: REPLAY_LIMIT + 1 }, (_, i) => ({
        tenantId: c.tenantId,
        entity: 'projects',
        action: 'create',
        entityId: `bulk-${i}`,
      })),
    );
    const stream = await listen(server.url, { token, query: { lastEventId: last } });
    expect(await stream.next()).toMatchObject({ event: 'reload' });
    stream.close();
  });

  it("shows no id that moves with another tenant's changes", async () => {
    const c = await createTenant(server.database.db);
    const token = (await signIn(server, c.name, c.adminEmail, TEST_PASSWORD)).access_token;
    await record(server, change(c, 'c-first'));
    /** The resume point a fresh connection of tenant C is given. */
    const resumePoint = async () => {
      const stream = await listen(server.url, { token });
      const deadline = Date.now() + 10_000;
      while (!stream.blocks.some((block) => block.id) && Date.now() < deadline) {
        await stream.next(100);
      }
      stream.close();
      return stream.blocks.find((block) => block.id)?.id;
    };
    const before = (await resumePoint())!;
    expect(before).toBe(await lastEventIdOf(c));
    await record(server, change(b, 'b-1'), change(b, 'b-2'), change(a, 'a-1'));
    expect(await resumePoint()).toBe(before);

    // C's next change replays from that point alone, B's and A's changes in between or not.
    await record(server, change(c, 'c-second'));
    const stream = await listen(server.url, { token, headers: { 'last-event-id': before } });
    const replayed = await stream.next();
    expect(replayed).toMatchObject({ data: expect.stringContaining('c-second') });
    expect(replayed!.id).toBe(await lastEventIdOf(c));
    expect(await stream.next(300)).toBeUndefined();
    stream.close();
  });

  it("lets a super administrator listen to the master realm's own events", async () => {
    const { access_token, tenantId } = await signIn(
      server,
      'master',
      'admin@example.com',
      SUPER_ADMIN_PASSWORD,
    );
    const stream = await listen(server.url, { token: access_token });
    await record(server, change(a, 'tenant-a'), {
      tenantId,
      actorId: null,
      entity: 'tenants',
      action: 'update',
      entityId: a.tenantId,
    });
    expect(JSON.parse((await stream.next())!.data!)).toMatchObject({ entity: 'tenants' });
    expect(await stream.next(300)).toBeUndefined();
  });

  it('keeps serving others when a client disconnects', async () => {
    const stream = await listen(server.url, { token: tokenA });
    stream.close();
    // The next change is still delivered to others and the server stays healthy.
    const other = await listen(server.url, { token: tokenA });
    await record(server, change(a, 'after-disconnect'));
    expect(JSON.parse((await other.next())!.data!)).toMatchObject({ id: 'after-disconnect' });
  });
});

describe.runIf(engine === 'postgres')('several processes on one PostgreSQL', () => {
  it('delivers a change committed through one process to a client of another', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../../../dist/main.js', import.meta.url))],
      {
        env: {
          PATH: process.env.PATH ?? '',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: server.url,
          DATABASE_URL: server.databaseUrl!,
          SEED_DEMO: 'false',
          BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
          LOG_LEVEL: 'warn',
        },
      },
    );
    children.push(child);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        if (output.includes('is running on')) resolve();
      });
      child.stderr!.on('data', (chunk) => (output += chunk));
      child.on('exit', (code) => reject(new Error(`second server exited (${code}): ${output}`)));
    });
    // Same PUBLIC_URL, so the token issued by process 1 is valid in process 2.
    const second = `http://127.0.0.1:${port}`;
    const stream = await listen(second, { query: { access_token: tokenA } });
    await record(server, change(b, 'other-tenant'), change(a, 'across-processes'));
    expect(JSON.parse((await stream.next())!.data!)).toMatchObject({ id: 'across-processes' });
    expect(await stream.next(300)).toBeUndefined();
    stream.close();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('shutdown', () => {
  it('ends open streams when the app closes, so the process can exit', async () => {
    const stream = await listen(server.url, { token: tokenA });
    closed = true;
    // A stream left open would hold close() until the test's own timeout fails it.
    await server.close();
    expect(await stream.next(1000)).toBeUndefined();
  });
});
