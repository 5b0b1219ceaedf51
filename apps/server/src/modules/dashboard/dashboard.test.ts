import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '@tc/contract/dashboard';
import {
  callApi,
  createSignedInTenant,
  refreshForm,
  signIn,
  tokenRequest,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { insertUser } from '../users';

type Tenant = Awaited<ReturnType<typeof createSignedInTenant>>;

let server: TestServer;
let a: Tenant;
let b: Tenant;
let anna: string;

const dashboard = async (token: string) => {
  const { status, body } = await callApi<Dashboard>(server, token, 'GET', '/dashboard');
  expect(status).toBe(200);
  return body.data as unknown as Dashboard;
};

let counter = 0;
async function addProject(tenant: Tenant, fields: Record<string, unknown>) {
  counter += 1;
  const { status } = await callApi(server, tenant.token, 'POST', '/projects/create', {
    name: `Project ${counter}`,
    projectNumber: `D-${counter}`,
    ...fields,
  });
  expect(status).toBe(201);
}

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  a = await createSignedInTenant(server);
  b = await createSignedInTenant(server);
  anna = await server.database.db.transaction((tx) =>
    insertUser(tx, {
      tenantId: a.tenantId,
      email: `anna@${a.domain}`,
      firstName: 'Anna',
      lastName: 'Schmidt',
      roleId: a.memberRoleId,
      password: TEST_PASSWORD,
    }),
  );
  // Tenant A: 4 projects, 3 countries (one unknown), 2 owners; tenant B: one large project.
  await addProject(a, { budget: '1000.50', country: 'DE', ownerId: anna });
  await addProject(a, { budget: '99999999999999.99', country: 'DE', ownerId: anna });
  await addProject(a, { budget: '250', country: 'CH', ownerId: a.adminId });
  await addProject(a, { budget: 0 });
  await addProject(b, {
    name: 'Secret of B',
    budget: '7777777.77',
    country: 'FR',
    ownerId: b.adminId,
  });
  // Invited (no password) users: one in A, two in B.
  await callApi(server, a.token, 'POST', '/users/create', {
    firstName: 'Ivo',
    lastName: 'Invited',
    email: `ivo@${a.domain}`,
    roleId: a.memberRoleId,
  });
  for (const name of ['x', 'y']) {
    await callApi(server, b.token, 'POST', '/users/create', {
      firstName: name,
      lastName: name,
      email: `${name}@${b.domain}`,
      roleId: b.memberRoleId,
    });
  }
});
afterAll(() => server?.close());

describe('GET /dashboard', () => {
  it("answers the caller's tenant's figures only", async () => {
    const data = await dashboard(a.token);
    expect(data.figures).toEqual({
      projects: 4,
      totalBudget: '100000000001250.49',
      users: 3,
      activeUsers: 2,
      invitedUsers: 1,
      roles: 2,
    });
    expect(data.budgetByCountry).toEqual([
      { country: 'DE', budget: '100000000001000.49', projects: 2 },
      { country: 'CH', budget: '250.00', projects: 1 },
      { country: null, budget: '0.00', projects: 1 },
    ]);
    expect(data.projectsPerOwner).toEqual([
      { ownerId: anna, owner: 'Anna Schmidt', projects: 2 },
      { ownerId: a.adminId, owner: 'Ada Admin', projects: 1 },
    ]);
    expect(data.usersByRole).toEqual([
      { roleId: a.memberRoleId, role: 'Member', users: 2 },
      { roleId: a.adminRoleId, role: 'Admin', users: 1 },
    ]);
    expect(JSON.stringify(data)).not.toMatch(/Secret of B|7777777|FR/);

    const other = await dashboard(b.token);
    expect(other.figures).toMatchObject({
      projects: 1,
      totalBudget: '7777777.77',
      invitedUsers: 2,
    });
    expect(other.budgetByCountry).toEqual([{ country: 'FR', budget: '7777777.77', projects: 1 }]);
  });

  it('counts sign-ins per UTC day over 30 days, kept after the user is gone', async () => {
    const before = await dashboard(a.token);
    expect(before.signInsPerDay).toHaveLength(30);
    expect(before.signInsPerDay.at(-1)).toEqual({ day: today(), count: 1 });
    expect(before.signInsPerDay.slice(0, -1).every((d) => d.count === 0)).toBe(true);
    const days = before.signInsPerDay.map((d) => Date.parse(d.day));
    expect(days.every((day, i) => i === 0 || day - days[i - 1]! === 86_400_000)).toBe(true);

    await signIn(server, a.name, `anna@${a.domain}`, TEST_PASSWORD);
    const { refresh_token } = await signIn(server, a.name, `anna@${a.domain}`, TEST_PASSWORD);
    // A refresh continues a session: it is no sign-in.
    expect((await tokenRequest(server, a.name, refreshForm(refresh_token))).status).toBe(200);
    await callApi(server, a.token, 'POST', `/users/delete/${anna}`);
    const after = await dashboard(a.token);
    expect(after.signInsPerDay.at(-1)).toEqual({ day: today(), count: 3 });
    expect((await dashboard(b.token)).signInsPerDay.at(-1)!.count).toBe(1);
  });

  it('lists the newest audit entries with the actor and what was changed', async () => {
    const c = await createSignedInTenant(server);
    for (let i = 1; i <= 12; i += 1) await addProject(c, { name: `Activity ${i}` });
    const { recentActivity } = await dashboard(c.token);
    expect(recentActivity).toHaveLength(10);
    expect(recentActivity[0]).toMatchObject({
      action: 'create',
      entity: 'projects',
      actorId: c.adminId,
      actor: 'Ada Admin',
      summary: 'Activity 12',
    });
    expect(recentActivity.map((entry) => entry.summary).at(-1)).toBe('Activity 3');
    expect(new Date(recentActivity[0]!.at).toISOString()).toBe(recentActivity[0]!.at);
  });

  it('changes as soon as the tenant does (no stale figures)', async () => {
    const c = await createSignedInTenant(server);
    expect((await dashboard(c.token)).figures.projects).toBe(0);
    await addProject(c, { budget: '5' });
    const data = await dashboard(c.token);
    expect(data.figures).toMatchObject({ projects: 1, totalBudget: '5.00' });
    expect(data.recentActivity[0]).toMatchObject({ entity: 'projects', action: 'create' });
  });

  it('answers an empty tenant with zeros', async () => {
    const c = await createSignedInTenant(server);
    const data = await dashboard(c.token);
    expect(data.figures).toEqual({
      projects: 0,
      totalBudget: '0.00',
      users: 1,
      activeUsers: 1,
      invitedUsers: 0,
      roles: 2,
    });
    expect(data.budgetByCountry).toEqual([]);
    expect(data.projectsPerOwner).toEqual([]);
    expect(data.recentActivity).toEqual([]);
  });
});
