import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, tenantHost } from '../test/helpers/account';
import { insertUser } from '../modules/users';
import { callApi, createSignedInTenant, refreshForm, signIn, tokenRequest } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';

// Cached answers are kept per tenant: how fast tenant A is answered must not tell whether
// tenant B has been busy. A cached page is seen here as one that leaves out a row written
// without a change notice; it stays cached through anything tenant B does.

let server: TestServer;
let a: Awaited<ReturnType<typeof createSignedInTenant>>;
let b: Awaited<ReturnType<typeof createSignedInTenant>>;

beforeAll(async () => {
  server = await startTestServer();
  a = await createSignedInTenant(server);
  b = await createSignedInTenant(server);
});
afterAll(() => server?.close());

const emailsOfA = async () => {
  const page = await callApi<{ email: string }>(server, a.token, 'POST', '/users/page', {
    pageSize: 100,
  });
  return page.body.data.data.map((user) => user.email);
};

const execute = (query: ReturnType<typeof sql>) => server.database.db.execute(query);

/** Inserts a user of A with the users table's change notices off. */
async function unnoticedUserOfA(email: string) {
  await execute(sql`alter table users disable trigger users_data_changed`);
  try {
    await insertUser(server.database.db, {
      tenantId: a.tenantId,
      email,
      firstName: 'Un',
      lastName: 'Noticed',
      roleId: a.memberRoleId,
    });
  } finally {
    await execute(sql`alter table users enable trigger users_data_changed`);
  }
}

/** Everything tenant B may do: API writes, sign-ins, sign-outs, writes from elsewhere. */
async function busyTenantB() {
  const user = { firstName: 'Bo', lastName: 'Busy', roleId: b.memberRoleId };
  const created = await callApi(server, b.token, 'POST', '/users/create', {
    ...user,
    email: `bo@${b.domain}`,
  });
  expect(created.status).toBe(201);
  const role = await callApi(server, b.token, 'POST', '/roles/create', { name: 'Busy' });
  expect(role.status).toBe(201);
  const tokens = await signIn(server, b.name, b.adminEmail, b.password);
  expect((await tokenRequest(server, b.name, refreshForm(tokens.refresh_token))).status).toBe(200);
  const logout = await fetch(`${server.url}/realms/${b.name}/protocol/openid-connect/logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'react-client', refresh_token: tokens.refresh_token }),
  });
  expect(logout.status).toBe(204);
  // Public account routes on B's host: they name B, not every tenant.
  const host = tenantHost(server, b.domain);
  const forgot = await postJson(server, '/auth/forgot-password', { email: b.adminEmail }, { host });
  expect(forgot.status).toBe(202);
  const signup = { fullName: 'Sig Nup', email: `sig@${b.domain}`, password: 'Sign-up-pass-1!' };
  expect((await postJson(server, '/auth/signup', signup, { host })).status).toBeLessThan(500);
  // Another process's write: only the database's change notice tells of it.
  await insertUser(server.database.db, {
    tenantId: b.tenantId,
    email: `elsewhere@${b.domain}`,
    firstName: 'Else',
    lastName: 'Where',
    roleId: b.memberRoleId,
  });
  // The notice of that write has arrived once B's own page shows it.
  await expect
    .poll(async () => {
      const page = await callApi<{ email: string }>(server, b.token, 'POST', '/users/page', {});
      return page.body.data.data.map((row) => row.email);
    })
    .toContain(`elsewhere@${b.domain}`);
}

describe("a tenant's cached answers", () => {
  it("stay cached through another tenant's activity, and go with the tenant's own", async () => {
    await emailsOfA();
    await unnoticedUserOfA(`hidden@${a.domain}`);
    expect(await emailsOfA()).not.toContain(`hidden@${a.domain}`);

    await busyTenantB();
    expect(await emailsOfA()).not.toContain(`hidden@${a.domain}`);

    const own = await callApi(server, a.token, 'POST', '/roles/create', { name: 'Own change' });
    expect(own.status).toBe(201);
    expect(await emailsOfA()).toContain(`hidden@${a.domain}`);
  });
});
