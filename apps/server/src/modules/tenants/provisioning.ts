import {
  ADMIN_ROLE,
  MASTER_REALM,
  MEMBER_PERMISSIONS,
  MEMBER_ROLE,
  SUPER_ADMIN_ROLE,
} from '@tc/contract/permissions';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { insertBuiltInClient } from '../clients';
import { createSystemPermissions } from '../permissions';
import { insertRole } from '../roles';

export interface ProvisionedTenant {
  tenantId: string;
  adminRoleId: string;
  memberRoleId: string;
  permissionIds: Map<string, string>;
}

/**
 * Creates a tenant with its realm, system permissions, Admin role (all of them), Member role
 * (read-only) and the console's built-in client, inside the caller's transaction so that it
 * is all or nothing.
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
    .returning({ id: tenants.id });
  const tenantId = tenant!.id;
  const permissionIds = await createSystemPermissions(tx, tenantId);
  const adminRoleId = await insertRole(tx, {
    tenantId,
    name: ADMIN_ROLE,
    description: 'Manages the whole tenant.',
    isSystem: true,
    permissionIds: [...permissionIds.values()],
  });
  const memberRoleId = await insertRole(tx, {
    tenantId,
    name: MEMBER_ROLE,
    description: 'Reads the tenant; given to users who sign up.',
    isSystem: true,
    permissionIds: MEMBER_PERMISSIONS.map((name) => permissionIds.get(name)!),
  });
  await insertBuiltInClient(tx, tenantId);
  return { tenantId, adminRoleId, memberRoleId, permissionIds };
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
