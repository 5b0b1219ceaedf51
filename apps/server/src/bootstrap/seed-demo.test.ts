import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '@tc/contract/dashboard';
import { callApi, signIn } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import { DEMO_ADMIN } from './seed-demo';

/** The demo tenant as a first start seeds it (SEED_DEMO), seen through the API. */
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ SEED_DEMO: 'true' });
  ({ access_token: token } = await signIn(server, 'demo', DEMO_ADMIN.email, DEMO_ADMIN.password));
});
afterAll(() => server?.close());

interface ProjectRow {
  id: string;
  name: string;
  ownerId: string | null;
  budget: string;
  country: string | null;
  peopleIds: string[];
  createdAt: string;
}

describe('the demo tenant', () => {
  it("has a dashboard with every chart's figures on the first start", async () => {
    const { status, body } = await callApi<Dashboard>(server, token, 'GET', '/dashboard');
    expect(status).toBe(200);
    const dashboard = body.data as unknown as Dashboard;
    expect(dashboard.figures.projects).toBeGreaterThanOrEqual(8);
    expect(dashboard.figures.projects).toBeLessThanOrEqual(12);
    expect(Number(dashboard.figures.totalBudget)).toBeGreaterThan(0);
    expect(dashboard.figures.users).toBe(5);
    expect(dashboard.figures.activeUsers).toBe(4);
    // Budgets in several countries, each with a budget, and one project without a country.
    const countries = dashboard.budgetByCountry.filter((row) => row.country !== null);
    expect(countries.length).toBeGreaterThanOrEqual(4);
    for (const row of countries) expect(Number(row.budget)).toBeGreaterThan(0);
    expect(dashboard.budgetByCountry.some((row) => row.country === null)).toBe(true);
    // Projects spread over several owners.
    expect(dashboard.projectsPerOwner.length).toBeGreaterThanOrEqual(4);
    expect(new Set(dashboard.projectsPerOwner.map((row) => row.projects)).size).toBeGreaterThan(1);
    // A month of sign-ins: most days before today have some.
    const before = dashboard.signInsPerDay.slice(0, -1);
    expect(before.filter((day) => day.count > 0).length).toBeGreaterThanOrEqual(15);
    // Every role has users, and the recent activity tells of the projects' creation.
    expect(dashboard.usersByRole.filter((row) => row.users > 0).length).toBeGreaterThanOrEqual(3);
    expect(dashboard.recentActivity.length).toBeGreaterThan(0);
    expect(dashboard.recentActivity[0]).toMatchObject({
      action: 'create',
      entity: 'projects',
      summary: 'Internal Wiki',
    });
    expect(dashboard.recentActivity.every((entry) => entry.actor !== null)).toBe(true);
  });

  it('has projects with owners, teams, budgets, countries and creation dates over months', async () => {
    const { status, body } = await callApi<ProjectRow>(server, token, 'POST', '/projects/page', {
      pageSize: 100,
      listSort: { field: 'createdAt', direction: 0 },
    });
    expect(status).toBe(200);
    const rows = body.data.data;
    expect(rows.length).toBe(body.data.totalCount);
    expect(rows.filter((row) => row.ownerId !== null).length).toBeGreaterThanOrEqual(8);
    expect(rows.filter((row) => row.peopleIds.length > 0).length).toBeGreaterThanOrEqual(8);
    expect(new Set(rows.map((row) => row.budget)).size).toBe(rows.length);
    const days = rows.map((row) => new Date(row.createdAt).getTime() / 86_400_000);
    expect(Math.max(...days) - Math.min(...days)).toBeGreaterThan(90);
    // The audit log dates each creation as its project.
    const { body: audit } = await callApi<{ entityId: string; createdAt: string }>(
      server,
      token,
      'POST',
      '/audit/page',
      { pageSize: 100 },
    );
    const logged = new Map(audit.data.data.map((entry) => [entry.entityId, entry.createdAt]));
    for (const row of rows) expect(logged.get(row.id)).toBe(row.createdAt);
  });
});
