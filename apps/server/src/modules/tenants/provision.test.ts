import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import { permissions, rolePermissions, roles } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { uniqueName } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { provisionTenant } from './provisioning';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('provisionTenant', () => {
  it('creates the realm, the system permissions and an Admin role holding them all', async () => {
    const db = server.database.db;
    const name = uniqueName();
    const { tenantId, adminRoleId } = await db.transaction((tx) =>
      provisionTenant(tx, { name, domain: `${name}.example.test` }),
    );
    const names = await db
      .select({ name: permissions.name, system: permissions.isSystem })
      .from(permissions)
      .where(eq(permissions.tenantId, tenantId));
    expect(names.map((p) => p.name).sort()).toEqual([...SYSTEM_PERMISSIONS].sort());
    expect(names.every((p) => p.system)).toBe(true);
    const held = await db
      .select()
      .from(rolePermissions)
      .where(eq(rolePermissions.roleId, adminRoleId));
    expect(held).toHaveLength(SYSTEM_PERMISSIONS.length);
    const realm = await fetch(`${server.url}/realms/${name}/.well-known/openid-configuration`);
    expect((await realm.json()).issuer).toBe(`${server.url}/realms/${name}`);
  });

  it('is all or nothing: a duplicate name (any case) leaves no partial tenant behind', async () => {
    const db = server.database.db;
    const name = uniqueName();
    await db.transaction((tx) => provisionTenant(tx, { name, domain: `${name}.example.test` }));
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(roles);
    await expect(
      db.transaction((tx) =>
        provisionTenant(tx, { name: name.toUpperCase(), domain: 'other.example.test' }),
      ),
    ).rejects.toThrow();
    const after = await db.select({ n: sql<number>`count(*)::int` }).from(roles);
    expect(after[0]!.n).toBe(before[0]!.n);
    const leftovers = await db
      .select()
      .from(tenants)
      .where(eq(tenants.domain, 'other.example.test'));
    expect(leftovers).toHaveLength(0);
  });
});
