import {
  ADMIN_ROLE,
  MASTER_REALM,
  MEMBER_PERMISSIONS,
  MEMBER_ROLE,
  SUPER_ADMIN_ROLE,
  SYSTEM_PERMISSIONS,
} from '@tc/contract/permissions';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { permissions, rolePermissions, roles } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { insertBuiltInClient } from '../clients';
import { insertRole } from '../roles';
import type { TenantRow } from './queries';

export interface ProvisionedTenant {
  tenantId: string;
  /** The new tenant's row, as inserted. */
  tenant: TenantRow;
  adminRoleId: string;
  memberRoleId: string;
  permissionIds: Map<string, string>;
}

const BUILT_IN_ROLES = [
  { name: ADMIN_ROLE, description: 'Manages the whole tenant.' },
  { name: MEMBER_ROLE, description: 'Reads the tenant; given to users who sign up.' },
];

/**
 * The system permissions, the Admin role (all of them) and the Member role (the read-only
 * ones) of a new tenant, in one statement: each table is written once, by a data-modifying
 * WITH, instead of one round trip per table and role.
 */
async function insertSystemRoles(tx: Database, tenantId: string) {
  const list = (values: SQL[]) => sql.join(values, sql`, `);
  const result = (await tx.execute(sql`
    with permission as (
      insert into ${permissions} (tenant_id, name, is_system)
      select ${tenantId}::uuid, name, true
      from (values ${list(SYSTEM_PERMISSIONS.map((name) => sql`(${name})`))}) as p (name)
      returning id, name
    ), role as (
      insert into ${roles} (tenant_id, name, description, status, is_system)
      values ${list(BUILT_IN_ROLES.map((r) => sql`(${tenantId}::uuid, ${r.name}, ${r.description}, 'active', true)`))}
      returning id, name
    ), granted as (
      insert into ${rolePermissions} (tenant_id, role_id, permission_id)
      select ${tenantId}::uuid, role.id, permission.id from role cross join permission
      where role.name = ${ADMIN_ROLE}
        or permission.name in (${list(MEMBER_PERMISSIONS.map((name) => sql`${name}`))})
    )
    select (select json_object_agg(name, id) from permission) as permission_ids,
           (select json_object_agg(name, id) from role) as role_ids`)) as unknown as {
    rows: Array<{ permission_ids: Record<string, string>; role_ids: Record<string, string> }>;
  };
  const [row] = result.rows;
  if (!row) throw new Error('The system roles of a new tenant were not written.');
  return {
    permissionIds: new Map(Object.entries(row.permission_ids)),
    adminRoleId: row.role_ids[ADMIN_ROLE]!,
    memberRoleId: row.role_ids[MEMBER_ROLE]!,
  };
}

/**
 * Creates a tenant with its realm, system permissions, Admin role (all of them), Member role
 * (read-only) and the console's built-in client, inside the caller's transaction so that it
 * is all or nothing: three statements, whatever the number of permissions.
 */
export async function provisionTenant(
  tx: Database,
  input: { name: string; domain: string; allowSignup?: boolean },
): Promise<ProvisionedTenant> {
  const [tenant] = await tx
    .insert(tenants)
    .values({
      name: input.name,
      domain: input.domain.toLowerCase(),
      allowSignup: input.allowSignup ?? false,
    })
    .returning();
  const tenantId = tenant!.id;
  const roleIds = await insertSystemRoles(tx, tenantId);
  await insertBuiltInClient(tx, tenantId);
  return { tenantId, tenant: tenant!, ...roleIds };
}

/** The master realm, its superAdmin role and the console's built-in client. */
export async function provisionMasterRealm(
  tx: Database,
): Promise<{ tenantId: string; roleId: string }> {
  const [tenant] = await tx
    .insert(tenants)
    .values({ name: MASTER_REALM, domain: null, isMaster: true })
    .returning({ id: tenants.id });
  const roleId = await insertRole(tx, {
    tenantId: tenant!.id,
    name: SUPER_ADMIN_ROLE,
    description: 'Manages tenants.',
    isSystem: true,
    permissionIds: [],
  });
  await insertBuiltInClient(tx, tenant!.id);
  return { tenantId: tenant!.id, roleId };
}
