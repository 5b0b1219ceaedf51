import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  permissionPageRequestSchema,
  type PermissionPageRequest,
} from '@tc/contract/permissions-api';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  addNeighbourTenants,
  firstValue,
  listUnderTest,
  rawClient,
  readsOf,
  type RawClient,
} from '../../test/helpers/list-plans';
import { pagePermissions } from './queries';

/**
 * The plans of the permission list's statements, exactly as the list sends them, on a tenant
 * of 3,000 permissions (a tenant has tens) among 100 tenants of 250: both sorts in both
 * directions, alone and held by a role, at the first, a middle and the last page, and
 * searches. No shape reads the table from end to end or sorts more than one role's grants.
 */
const PERMISSIONS = 3_000;
const PAGE_SIZE = 10;
const SORT_FIELDS = ['name', 'createdAt'] as const;

let server: TestServer;
let client: RawClient;
let tenant: TenantFixture;
let bigRole: { id: string; grants: number };
let smallRole: { id: string; grants: number };

const value = <T>(text: string, params?: unknown[]) => firstValue<T>(client, text, params);

beforeAll(async () => {
  server = await startTestServer();
  client = rawClient(server);
  tenant = await createTenant(server.database.db);
  await addNeighbourTenants(client, tenant.name);
  await client.query(
    `insert into permissions (tenant_id, name, created_at)
     select t.id, 'p' || md5(t.id::text || g) || ':' || g,
       timestamptz '2026-01-01' + g * interval '1 minute'
     from tenants t, generate_series(1, 250) g where t.name like 'plans-%'`,
  );
  await client.query(
    `insert into permissions (tenant_id, name, created_at)
     select $1, md5(g::text) || ':list', timestamptz '2026-01-01' + (g / 3) * interval '1 minute'
     from generate_series(1, $2::int) g`,
    [tenant.tenantId, PERMISSIONS],
  );
  // The tenant's Member role holds half of them, its Admin role a few more than it had.
  await client.query(
    `insert into role_permissions (tenant_id, role_id, permission_id)
     select $1, $2, id from permissions
     where tenant_id = $1 and name like '%:list' and hashtext(name) % 2 = 0`,
    [tenant.tenantId, tenant.memberRoleId],
  );
  await client.query(
    `insert into role_permissions (tenant_id, role_id, permission_id)
     select $1, $2, id from permissions
     where tenant_id = $1 and name like '%:list' and hashtext(name) % 500 = 1`,
    [tenant.tenantId, tenant.adminRoleId],
  );
  await client.query('vacuum analyze');
  const grants = (roleId: string) =>
    value<number>('select count(*)::int from role_permissions where role_id = $1', [roleId]);
  bigRole = { id: tenant.memberRoleId, grants: await grants(tenant.memberRoleId) };
  smallRole = { id: tenant.adminRoleId, grants: await grants(tenant.adminRoleId) };
}, 120_000);
afterAll(() => server?.close());

const list = listUnderTest({
  page: pagePermissions,
  parse: (body): PermissionPageRequest => permissionPageRequestSchema.parse(body),
  sortFields: SORT_FIELDS,
  pageSize: PAGE_SIZE,
  scope: () => ({ server, tenantId: tenant.tenantId }),
});

describe(`the permission list's plans at ${PERMISSIONS} permissions`, () => {
  for (const field of SORT_FIELDS) {
    it(`sorted by ${field}, both ways, alone and by role: nothing else is sorted`, async () => {
      expect(bigRole.grants).toBeGreaterThan(PERMISSIONS / 3);
      expect(smallRole.grants).toBeLessThan(50);
      // A role's permissions may be read through its grants and sorted: at most those.
      for (const [filter, most] of [
        [{}, 0],
        [{ roleId: bigRole.id }, bigRole.grants],
        [{ roleId: smallRole.id }, smallRole.grants],
      ] as const) {
        await list.pagePlans(field, filter, (statements, shape) => {
          const reads = readsOf(statements, 'permissions');
          expect(reads.seqScans, shape).toEqual([]);
          for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(most);
        });
      }
    });
  }

  it('a search matching few permissions finds them by the trigram index and sorts only them', async () => {
    // Four characters inside one of the tenant's names, and two that start it.
    const bound = await value<string>(
      'select name from permissions where tenant_id = $1 order by name offset 100 limit 1',
      [tenant.tenantId],
    );
    for (const [search, pattern] of [
      [bound.slice(3, 7), `%${bound.slice(3, 7)}%`],
      [bound.slice(0, 2), `${bound.slice(0, 2)}%`],
    ] as const) {
      const matches = await value<number>(
        'select count(*)::int from permissions where tenant_id = $1 and name ilike $2',
        [tenant.tenantId, pattern],
      );
      expect(matches).toBeGreaterThan(0);
      expect(matches).toBeLessThan(PERMISSIONS / 50);
      await list.firstPagePlans({ search }, (statements, shape) => {
        const reads = readsOf(statements, 'permissions');
        expect(reads.seqScans, shape).toEqual([]);
        expect(reads.bitmapIndexes, shape).toContain('permissions_name_trgm_idx');
        for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(matches);
      });
    }
  });

  it('a search most permissions match walks the sort index', async () => {
    await list.firstPagePlans({ search: 'list' }, (statements, shape) => {
      const rows = readsOf(statements, 'permissions', 'without init plans');
      expect(rows.seqScans, shape).toEqual([]);
      expect(rows.sorted, shape).toEqual([]);
    });
  });

  it('a page past the last has no rows and still tells the total, counted on its own', async () => {
    for (const filter of [{}, { roleId: smallRole.id }, { search: 'list' }]) {
      const { total, beyond } = await list.pastTheLastPage(filter);
      expect(total, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(beyond, JSON.stringify(filter)).toMatchObject({ data: [], totalCount: total });
    }
  });
});
