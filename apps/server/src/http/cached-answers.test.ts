import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../modules/users';
import { callApi, createSignedInTenant, signIn } from '../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../test/harness';

// Pages and callers are cached while the data they come from is unchanged (db/data-version.ts).
// These tests prove the cache is used, and that no change, made anywhere, is missed.

let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createSignedInTenant(server);
});
afterAll(() => server?.close());

const usersPage = () =>
  callApi<{ email: string }>(server, tenant.token, 'POST', '/users/page', { pageSize: 100 });
const emails = async () => (await usersPage()).body.data.data.map((user) => user.email);

/** Polls until `check` passes: a change made by another process arrives as a notice. */
async function eventually(check: () => Promise<void>, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const execute = (query: ReturnType<typeof sql>) => server.database.db.execute(query);

/** Runs `act` with the change notices of `tables` off: what is seen then, this process did. */
async function unnoticed<T>(tables: string[], act: () => Promise<T>): Promise<T> {
  const toggle = (state: 'enable' | 'disable') =>
    Promise.all(
      tables.map((table) =>
        execute(sql.raw(`alter table ${table} ${state} trigger ${table}_data_changed`)),
      ),
    );
  await toggle('disable');
  try {
    return await act();
  } finally {
    await toggle('enable');
  }
}

describe('cached answers', () => {
  it('serve a repeated page from the cache while nothing has changed', async () => {
    await usersPage();
    // A row hidden from the change notices: only a cached page can still leave it out.
    await unnoticed(['users'], () =>
      insertUser(server.database.db, {
        tenantId: tenant.tenantId,
        email: 'unnoticed@cache.test',
        firstName: 'Un',
        lastName: 'Noticed',
        roleId: tenant.memberRoleId,
      }),
    );
    expect(await emails()).not.toContain('unnoticed@cache.test');
  });

  it('show a change made through the API in the very next answer', async () => {
    await usersPage();
    // Without the database's notice, so it is this process's own count that must move.
    const seen = await unnoticed(['users'], async () => {
      const created = await callApi(server, tenant.token, 'POST', '/users/create', {
        firstName: 'Fresh',
        lastName: 'Write',
        email: 'fresh@cache.test',
        roleId: tenant.memberRoleId,
        status: 'active',
      });
      expect(created.status).toBe(201);
      return emails();
    });
    // The earlier, unnoticed row comes along: the write made every cached page stale.
    expect(seen).toEqual(expect.arrayContaining(['fresh@cache.test', 'unnoticed@cache.test']));
  });

  it('show a change another process wrote to the database', async () => {
    await usersPage();
    await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email: 'elsewhere@cache.test',
      firstName: 'Else',
      lastName: 'Where',
      roleId: tenant.memberRoleId,
    });
    await eventually(async () => expect(await emails()).toContain('elsewhere@cache.test'));
  });

  it("end a caller's access at once when the API deactivates them", async () => {
    const user = await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email: 'leaver@cache.test',
      firstName: 'Lea',
      lastName: 'Ver',
      roleId: tenant.adminRoleId,
      password: TEST_PASSWORD,
    });
    const { access_token: token } = await signIn(
      server,
      tenant.name,
      'leaver@cache.test',
      TEST_PASSWORD,
    );
    const asLeaver = () => callApi(server, token, 'POST', '/users/page', {});
    expect((await asLeaver()).status).toBe(200);
    expect((await asLeaver()).status).toBe(200);
    const status = await unnoticed(['users', 'sessions'], async () => {
      const updated = await callApi(server, tenant.token, 'PUT', '/users/update', {
        id: user,
        firstName: 'Lea',
        lastName: 'Ver',
        email: 'leaver@cache.test',
        roleId: tenant.adminRoleId,
        status: 'inactive',
      });
      expect(updated.status).toBe(200);
      return (await asLeaver()).status;
    });
    expect(status).toBe(401);
  });

  it('end a session another process revoked', async () => {
    const { access_token: token } = await signIn(
      server,
      tenant.name,
      tenant.adminEmail,
      TEST_PASSWORD,
    );
    const asAdmin = () => callApi(server, token, 'POST', '/users/page', {});
    expect((await asAdmin()).status).toBe(200);
    const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      sid: string;
    };
    await execute(sql`update sessions set revoked_at = now() where id = ${sid}`);
    await eventually(async () => expect((await asAdmin()).status).toBe(401));
  });
});
