import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { principalsForSessions } from '../identity/principal';
import { insertUser } from '../modules/users';
import { callApi, createSignedInTenant, signIn } from '../test/fixtures';
import { engine, freePort, startTestServer, TEST_PASSWORD, type TestServer } from '../test/harness';

// No answer is kept between requests (docs/decisions/0012-no-answer-cache.md): whatever was
// committed before a request arrived, through this server, another one or straight into the
// database, shows in its answer. Two servers share one database here, as two processes do:
// on PostgreSQL each has its own connections (and its own LISTEN), on PGlite the one database.

let server: TestServer;
let other: TestServer;
let otherApp: FastifyInstance;
let otherDatabase: DatabaseHandle | undefined;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;

beforeAll(async () => {
  server = await startTestServer();
  otherDatabase = server.databaseUrl
    ? await openDatabase({ databaseUrl: server.databaseUrl, dataDir: '', poolSize: 3 })
    : undefined;
  // The same PUBLIC_URL: a token the first one issued is good at the second.
  otherApp = await buildApp({ config: server.config, database: otherDatabase ?? server.database });
  const port = await freePort();
  await otherApp.listen({ port, host: '127.0.0.1' });
  other = { ...server, url: `http://127.0.0.1:${port}`, app: otherApp };
  tenant = await createSignedInTenant(server);
});
afterAll(async () => {
  await otherApp?.close();
  await otherDatabase?.close();
  await server?.close();
});

const execute = (query: ReturnType<typeof sql>) => server.database.db.execute(query);

/** A user of the tenant with a password, signed in through the first server. */
async function signedInUser(email: string, roleId = tenant.adminRoleId) {
  const id = await insertUser(server.database.db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Sam',
    lastName: 'Signed',
    roleId,
    password: TEST_PASSWORD,
  });
  const { access_token: token } = await signIn(server, tenant.name, email, TEST_PASSWORD);
  return { id, token };
}

const usersPage = (at: TestServer, token: string) =>
  callApi<{ email: string }>(at, token, 'POST', '/users/page', { pageSize: 100 });

const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

describe('answers of two servers on one database', () => {
  it("end a deactivated user's access at the very next request, on either server", async () => {
    const leaver = await signedInUser('leaver@fresh.test');
    // Both servers have answered this token before the change.
    expect((await usersPage(server, leaver.token)).status).toBe(200);
    expect((await usersPage(other, leaver.token)).status).toBe(200);
    const updated = await callApi(server, tenant.token, 'PUT', '/users/update', {
      id: leaver.id,
      firstName: 'Sam',
      lastName: 'Signed',
      email: 'leaver@fresh.test',
      roleId: tenant.adminRoleId,
      status: 'inactive',
    });
    expect(updated.status).toBe(200);
    expect((await usersPage(other, leaver.token)).status).toBe(401);
    expect((await usersPage(server, leaver.token)).status).toBe(401);
  });

  it('end a session ended straight in the database, with no notice to anyone', async () => {
    const user = await signedInUser('ended@fresh.test');
    expect((await usersPage(server, user.token)).status).toBe(200);
    expect((await usersPage(other, user.token)).status).toBe(200);
    await execute(sql`update sessions set revoked_at = now() where id = ${sessionOf(user.token)}`);
    expect((await usersPage(other, user.token)).status).toBe(401);
    expect((await usersPage(server, user.token)).status).toBe(401);
  });

  it("withdraw a permission from the role's users at their very next request", async () => {
    const [usersRead] = (
      (await execute(
        sql`select id from permissions where tenant_id = ${tenant.tenantId} and name = 'users:read'`,
      )) as unknown as { rows: Array<{ id: string }> }
    ).rows;
    const created = await callApi<{ id: string }>(server, tenant.token, 'POST', '/roles/create', {
      name: 'Readers of users',
      permissionIds: [usersRead!.id],
    });
    expect(created.status).toBe(201);
    const roleId = created.body.data.id;
    const reader = await signedInUser('reader@fresh.test', roleId);
    expect((await usersPage(other, reader.token)).status).toBe(200);
    await execute(sql`delete from role_permissions where role_id = ${roleId}`);
    expect((await usersPage(other, reader.token)).status).toBe(403);
    expect((await usersPage(server, reader.token)).status).toBe(403);
  });

  it('show a row written straight into the database in the very next page', async () => {
    const before = await usersPage(other, tenant.token);
    expect(before.body.data.data.map((row) => row.email)).not.toContain('direct@fresh.test');
    await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email: 'direct@fresh.test',
      firstName: 'Di',
      lastName: 'Rect',
      roleId: tenant.memberRoleId,
    });
    for (const at of [other, server]) {
      const page = await usersPage(at, tenant.token);
      expect(page.body.data.data.map((row) => row.email)).toContain('direct@fresh.test');
    }
  });

  it.runIf(engine === 'postgres')(
    'see every change after their listening connections were cut',
    async () => {
      const user = await signedInUser('cut@fresh.test');
      expect((await usersPage(other, user.token)).status).toBe(200);
      // An open event stream makes each server listen for the live events.
      const streams = new AbortController();
      for (const at of [server, other]) {
        const opened = await fetch(`${at.url}/api/v1.0/events?access_token=${user.token}`, {
          signal: streams.signal,
        });
        expect(opened.status).toBe(200);
      }
      // Every LISTEN of the database's sessions ends.
      const cut = (await execute(
        sql`select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and query ilike 'listen%'`,
      )) as unknown as { rows: Array<{ ended: boolean }> };
      streams.abort();
      expect(cut.rows.length).toBeGreaterThan(0);
      await execute(sql`update users set status = 'inactive' where id = ${user.id}`);
      expect((await usersPage(other, user.token)).status).toBe(401);
      expect((await usersPage(server, user.token)).status).toBe(401);
    },
  );
});

describe('requests that arrive together', () => {
  it("are each answered as their own caller, whoever else's request shares the reading", async () => {
    const roleless = await callApi<{ id: string }>(server, tenant.token, 'POST', '/roles/create', {
      name: 'No permissions',
    });
    const outsider = await signedInUser('outsider@fresh.test', roleless.body.data.id);
    const ended = await signedInUser('gone@fresh.test');
    await execute(sql`update sessions set revoked_at = now() where id = ${sessionOf(ended.token)}`);
    const callers = [tenant.token, outsider.token, ended.token, 'not-a-token'];
    const expected = [200, 403, 401, 401];
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        usersPage(i % 2 ? other : server, callers[i % 4]!).then((answer) => answer.status),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: 24 }, (_, i) => expected[i % 4]));
  });

  it('find every open session of a batch larger than one statement holds', async () => {
    const users = await Promise.all(
      ['one', 'two', 'three', 'ended'].map((name) => signedInUser(`${name}@batch.test`)),
    );
    const [one, two, three, ended] = users.map((user) => sessionOf(user.token));
    await execute(sql`update sessions set revoked_at = now() where id = ${ended!}`);
    const asked: string[] = Array.from({ length: 70 }, () => randomUUID());
    asked[0] = one!;
    asked[33] = two!;
    asked[69] = three!;
    asked[40] = ended!;
    const found = await principalsForSessions(server.database.db, asked);
    expect([...found.keys()].sort()).toEqual([one, two, three].sort());
    expect(found.get(two!)).toMatchObject({
      userId: users[1]!.id,
      tenantId: tenant.tenantId,
      email: 'two@batch.test',
      passwordHash: null,
    });
    expect(found.get(two!)!.permissions).toContain('users:read');
  });

  it('get equal pages when they ask for the same one', async () => {
    const body = { pageSize: 5, listSort: { field: 'email', direction: 1 } };
    const pages = await Promise.all(
      Array.from({ length: 12 }, () => callApi(server, tenant.token, 'POST', '/users/page', body)),
    );
    expect(pages.every((page) => page.status === 200)).toBe(true);
    const first = JSON.stringify(pages[0]!.body);
    expect(pages.every((page) => JSON.stringify(page.body) === first)).toBe(true);
    expect(pages[0]!.body.data.data).toHaveLength(5);
  });
});
