import type { Permission } from '@tc/contract/permissions-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database';
import { createTenant, refreshForm, type TenantFixture } from '../test/fixtures';
import { createPostgresDatabase, engine, freePort, SUPER_ADMIN_PASSWORD } from '../test/harness';
import { SseReader } from '../test/event-stream';
import { startNginx, UPSTREAM_HEADER, type TestNginx } from '../test/nginx';
import { startServerProcess, type ServerProcess } from '../test/server-process';

// Three server processes on one PostgreSQL database behind a real nginx run from
// deploy/nginx.conf: limits, sessions and live updates hold across them, and a process killed
// mid-load costs only the requests it had in flight.

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let nginx: TestNginx;
let servers: ServerProcess[];
let tenant: TenantFixture;
let limited: TenantFixture;

const until = async (done: () => boolean, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

const token = (realm: string, form: Record<string, string>, forwardedFor?: string) =>
  fetch(`${nginx.url}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    // What a proxy further out would have sent; nginx appends the address it saw.
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    body: new URLSearchParams({ client_id: 'react-client', ...form }),
  });

async function signIn(who: TenantFixture) {
  const answer = await token(who.name, {
    grant_type: 'password',
    username: who.adminEmail,
    password: who.password,
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { access_token: string; refresh_token: string };
}

const api = (path: string, accessToken: string, body?: unknown) =>
  fetch(`${nginx.url}/api/v1.0${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

let named = 0;
const createPermission = (accessToken: string) =>
  api('/permissions/create', accessToken, {
    name: `fleet:p${++named}`,
    roleIds: [tenant.adminRoleId],
  });

/** An event stream read as EventSource reads it: the ids of the changes it carried. */
async function openStream(accessToken: string, lastEventId?: string) {
  const response = await fetch(`${nginx.url}/api/v1.0/events`, {
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  });
  expect(response.status).toBe(200);
  const reader = new SseReader(response);
  const stream = {
    upstream: response.headers.get(UPSTREAM_HEADER) ?? '',
    changed: new Set<string>(),
    reloaded: false,
    get lastEventId() {
      return reader.lastEventId ?? lastEventId;
    },
    get ended() {
      return reader.ended;
    },
  };
  // Read in the background until the stream ends (with its process, when that is killed).
  void (async () => {
    while (!reader.ended) {
      const block = await reader.next(60_000);
      if (block?.event === 'reload') stream.reloaded = true;
      else if (block?.data) stream.changed.add((JSON.parse(block.data) as { id: string }).id);
    }
  })();
  return stream;
}

const serverAt = (upstream: string) => servers.find((server) => server.url.endsWith(upstream));

describe.runIf(engine === 'postgres')(
  'a fleet behind nginx (PostgreSQL only: the embedded database serves one process)',
  () => {
    beforeAll(async () => {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      const nginxPort = await freePort();
      const env = {
        DATABASE_URL: database.url,
        PUBLIC_URL: `http://127.0.0.1:${nginxPort}`,
        BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
        MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
        BRUTE_FORCE_QUICK_LOGIN_MS: '0',
        // nginx (and this test, as the proxy further out) on loopback: the client's address
        // is the first of X-Forwarded-For, and the per-address limit counts it.
        TRUST_PROXY: 'loopback',
        TOKEN_RATE_LIMIT: '10',
      };
      // One after the other: the first migrates and seeds, the others find it done.
      servers = [];
      for (let i = 0; i < 3; i += 1) {
        const server = await startServerProcess(env);
        cleanups.push(server.stop);
        servers.push(server);
      }
      nginx = await startNginx(
        servers.map((server) => new URL(server.url).host),
        nginxPort,
      );
      cleanups.push(nginx.stop);
      const handle = await openDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 2 });
      tenant = await createTenant(handle.db);
      limited = await createTenant(handle.db);
      await handle.close();
    }, 120_000);

    it('a limit of 10 a minute admits 10 in total, not 10 per process', async () => {
      const wrongPassword = (client: string) =>
        token(
          limited.name,
          { grant_type: 'password', username: limited.adminEmail, password: 'wrong' },
          client,
        );
      const statuses: number[] = [];
      const upstreams = new Set<string>();
      for (let i = 0; i < 30; i += 1) {
        const answer = await wrongPassword('203.0.113.1');
        statuses.push(answer.status);
        upstreams.add(answer.headers.get(UPSTREAM_HEADER) ?? '');
      }
      expect(upstreams.size).toBe(3);
      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(20);
      // The limit is the client's, as nginx forwarded it, not the proxy's for everyone.
      expect((await wrongPassword('203.0.113.2')).status).toBe(401);
    }, 60_000);

    it('a signed-in session works on every process', async () => {
      let session = await signIn(tenant);
      const upstreams = new Set<string>();
      for (let i = 0; i < 6; i += 1) {
        const answer = await api(
          `/permissions/${tenant.permissionIds.get('users:read')}`,
          session.access_token,
        );
        expect(answer.status).toBe(200);
        upstreams.add(answer.headers.get(UPSTREAM_HEADER) ?? '');
      }
      // Each refresh lands on the next process, which must honour what another one issued.
      for (let i = 0; i < 3; i += 1) {
        const answer = await token(tenant.name, refreshForm(session.refresh_token));
        expect(answer.status).toBe(200);
        upstreams.add(answer.headers.get(UPSTREAM_HEADER) ?? '');
        session = (await answer.json()) as typeof session;
      }
      expect(upstreams.size).toBe(3);
    }, 60_000);

    it('an event stream receives a change made through another process', async () => {
      const session = await signIn(tenant);
      const stream = await openStream(session.access_token);
      expect(serverAt(stream.upstream)).toBeDefined();
      let created: Permission | undefined;
      for (let i = 0; i < 6 && !created; i += 1) {
        const answer = await createPermission(session.access_token);
        expect(answer.status).toBe(201);
        const row = ((await answer.json()) as { data: Permission }).data;
        if (answer.headers.get(UPSTREAM_HEADER) !== stream.upstream) created = row;
      }
      expect(created).toBeDefined();
      await until(() => stream.changed.has(created!.id), 'the change on the stream');
    }, 60_000);

    it('a process killed with SIGKILL: the others answer, sessions and live updates go on', async () => {
      let session = await signIn(tenant);
      const stream = await openStream(session.access_token);
      const victim = serverAt(stream.upstream)!;
      const results: Array<{ start: number; end: number; ok: boolean }> = [];
      const acknowledged: string[] = [];
      let stopping = false;
      const permissionId = tenant.permissionIds.get('users:read')!;
      const client = async (n: number) => {
        while (!stopping) {
          const start = Date.now();
          const answer = await (
            n % 2
              ? createPermission(session.access_token)
              : api(`/permissions/${permissionId}`, session.access_token)
          ).catch(() => undefined);
          const ok = answer?.status === (n % 2 ? 201 : 200);
          if (ok && n % 2)
            acknowledged.push(((await answer!.json()) as { data: Permission }).data.id);
          results.push({ start, end: Date.now(), ok });
        }
      };
      const CLIENTS = 4;
      const running = Array.from({ length: CLIENTS }, (_, n) => client(n));
      await until(() => results.length >= 20, 'requests before the kill');
      const killedAt = Date.now();
      await victim.kill();
      const killed = Date.now();
      await until(() => results.filter((r) => r.start > killed).length >= 40, 'requests after it');
      stopping = true;
      await Promise.all(running);

      // Only requests in flight on the killed process may have failed: at most one per client.
      const failed = results.filter((r) => !r.ok);
      expect(failed.length).toBeLessThanOrEqual(CLIENTS);
      for (const r of failed) {
        expect(r.start).toBeLessThanOrEqual(killed);
        expect(r.end).toBeGreaterThanOrEqual(killedAt);
      }
      expect(results.filter((r) => r.start > killed).every((r) => r.ok)).toBe(true);

      // The session goes on: the token is accepted and refreshed by the survivors.
      const refreshed = await token(tenant.name, refreshForm(session.refresh_token));
      expect(refreshed.status).toBe(200);
      session = (await refreshed.json()) as typeof session;
      expect((await api(`/permissions/${permissionId}`, session.access_token)).status).toBe(200);

      // The stream ended with its process; EventSource reconnects with the last id it saw and
      // gets every acknowledged change it missed, then new ones.
      await until(() => stream.ended, 'the stream to end with its process');
      const resumed = await openStream(session.access_token, stream.lastEventId);
      expect(resumed.upstream).not.toBe(stream.upstream);
      const answer = await createPermission(session.access_token);
      expect(answer.status).toBe(201);
      acknowledged.push(((await answer.json()) as { data: Permission }).data.id);
      const seen = (id: string) => stream.changed.has(id) || resumed.changed.has(id);
      await until(() => acknowledged.every(seen), 'every acknowledged change on a stream');
      expect(resumed.reloaded).toBe(false);
    }, 90_000);
  },
);
