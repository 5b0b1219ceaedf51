import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '@tc/contract/projects';
import { callApi, createSignedInTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { rawClient } from '../../test/helpers/list-plans';
import { insertUser } from '../users';

/**
 * What the database keeps beside the projects for the list (migration 0016): each project's
 * owner name, renamed with its owner and cleared when the owner goes, and the totals per
 * tenant, owner and country, right after every create, update and delete.
 */
let server: TestServer;
let tenant: TenantFixture & { token: string };
let other: TenantFixture & { token: string };
const owners: Array<{ id: string; email: string }> = [];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createSignedInTenant(server);
  other = await createSignedInTenant(server);
  for (const [firstName, lastName] of [
    ['Zoe', 'Zimmer'],
    ['Anna', 'Adler'],
  ]) {
    const email = `${firstName}@${tenant.domain}`.toLowerCase();
    const id = await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email,
      firstName: firstName!,
      lastName: lastName!,
      roleId: tenant.memberRoleId,
    });
    owners.push({ id, email });
  }
});
afterAll(() => server?.close());

const send = (method: string, path: string, body?: unknown, token = tenant.token) =>
  callApi<Project>(server, token, method, path, body);

async function page(filter: object, sort = 'owner', direction = 0) {
  const { status, body } = await send('POST', '/projects/page', {
    pageSize: 100,
    filter,
    listSort: { field: sort, direction },
  });
  expect(status).toBe(200);
  return body.data;
}

/** The totals as counted from the rows themselves, for every filter the list has. */
async function countedTotals(tenantId: string) {
  const { rows } = await rawClient(server).query(
    `select count(*)::int as "all",
       count(*) filter (where owner_id = $2)::int as "owner",
       count(*) filter (where country = 'DE')::int as "country"
     from projects where tenant_id = $1`,
    [tenantId, owners[0]!.id],
  );
  return rows[0] as { all: number; owner: number; country: number };
}

async function listedTotals() {
  return {
    all: (await page({})).totalCount,
    owner: (await page({ ownerId: owners[0]!.id })).totalCount,
    country: (await page({ country: 'DE' })).totalCount,
  };
}

describe("the projects' kept columns", () => {
  it("sorts by the owner's current name: set on create, renamed with the owner, cleared when the owner goes", async () => {
    const created: string[] = [];
    for (const [i, owner] of owners.entries()) {
      const { status, body } = await send('POST', '/projects/create', {
        name: `owned ${i}`,
        projectNumber: `OWN-${i}`,
        ownerId: owner.id,
      });
      expect(status).toBe(201);
      created.push(body.data.id);
    }
    expect((await page({})).data.map((row) => row.owner)).toEqual(['Anna Adler', 'Zoe Zimmer']);

    // Zoe becomes Aaron Zimmer: her project now sorts first, under the new name.
    const renamed = await send('PUT', '/users/update', {
      id: owners[0]!.id,
      email: owners[0]!.email,
      firstName: 'Aaron',
      lastName: 'Zimmer',
      roleId: tenant.memberRoleId,
    });
    expect(renamed.status).toBe(200);
    expect((await page({})).data.map((row) => row.owner)).toEqual(['Aaron Zimmer', 'Anna Adler']);
    expect((await send('GET', `/projects/${created[0]}`)).body.data.owner).toBe('Aaron Zimmer');

    // Another owner taken over by update, then the owner deleted: no name is left behind.
    const updated = await send('PUT', '/projects/update', {
      id: created[1],
      name: 'owned 1',
      projectNumber: 'OWN-1',
      ownerId: owners[0]!.id,
    });
    expect(updated.body.data.owner).toBe('Aaron Zimmer');
    const removed = await send('POST', `/users/delete/${owners[1]!.id}`);
    expect(removed.status).toBe(200);
    const rows = (await page({}, 'owner', 1)).data;
    expect(rows.map((row) => [row.name, row.owner])).toEqual([
      ['owned 1', 'Aaron Zimmer'],
      ['owned 0', 'Aaron Zimmer'],
    ]);
  });

  it('answers exact totals per tenant, owner and country after every change', async () => {
    const ids: string[] = [];
    const check = async () =>
      expect(await listedTotals()).toEqual(await countedTotals(tenant.tenantId));
    for (let i = 0; i < 6; i += 1) {
      const { status, body } = await send('POST', '/projects/create', {
        name: `counted ${i}`,
        projectNumber: `CNT-${i}`,
        ownerId: i % 2 === 0 ? owners[0]!.id : null,
        country: i % 3 === 0 ? 'DE' : 'FR',
      });
      expect(status).toBe(201);
      ids.push(body.data.id);
    }
    await check();
    // Owner and country change, each alone and both at once.
    for (const [i, change] of [
      { ownerId: null },
      { country: 'DE' },
      { ownerId: owners[0]!.id, country: null },
    ].entries()) {
      const { status } = await send('PUT', '/projects/update', {
        id: ids[i],
        name: `counted ${i}`,
        projectNumber: `CNT-${i}`,
        ...change,
      });
      expect(status).toBe(200);
      await check();
    }
    expect((await send('POST', `/projects/delete/${ids[5]}`)).status).toBe(200);
    await check();
    // Another tenant's projects are counted for it alone.
    const { status } = await send(
      'POST',
      '/projects/create',
      { name: 'elsewhere', projectNumber: 'ELSE-1', country: 'DE' },
      other.token,
    );
    expect(status).toBe(201);
    await check();
    const elsewhere = await callApi<Project>(server, other.token, 'POST', '/projects/page', {
      filter: { country: 'DE' },
    });
    expect(elsewhere.body.data.totalCount).toBe(1);
  });
});
