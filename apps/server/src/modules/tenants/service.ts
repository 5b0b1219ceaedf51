import { and, eq, sql } from 'drizzle-orm';
import {
  ADMIN_ROLE,
  MASTER_REALM,
  MEMBER_PERMISSIONS,
  MEMBER_ROLE,
  SUPER_ADMIN_ROLE,
} from '@tc/contract/permissions';
import type { TenantInfo } from '@tc/contract/identity';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { notFound } from '../../http/problem';
import { createSystemPermissions } from '../permissions';
import { insertRole } from '../roles';
import { fileUrl } from '../files';

export interface ProvisionedTenant {
  tenantId: string;
  adminRoleId: string;
  memberRoleId: string;
  permissionIds: Map<string, string>;
}

/**
 * Creates a tenant with its realm, system permissions, Admin role (all of them) and Member
 * role (read-only), inside the caller's transaction so that it is all or nothing.
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
  return { tenantId, adminRoleId, memberRoleId, permissionIds };
}

/** The master realm and its superAdmin role. */
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
  return { tenantId: tenant!.id, roleId };
}

export async function findMasterRealm(db: Database) {
  const [row] = await db.select().from(tenants).where(eq(tenants.isMaster, true)).limit(1);
  return row;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Which tenant a request is for: the Tenant-ID header first, else the host name against the
 * tenants' domains; the public host (and localhost) is the master realm.
 */
export async function identifyTenant(
  db: Database,
  input: {
    tenantIdHeader: string | undefined;
    hostname: string;
    publicHost: string;
    /** The server's Google OAuth client id; undefined when Google sign-in is off. */
    googleClientId: string | undefined;
  },
): Promise<TenantInfo> {
  const host = input.hostname.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  let where;
  if (input.tenantIdHeader !== undefined) {
    if (!UUID.test(input.tenantIdHeader)) throw notFound('tenant.not_found');
    where = eq(tenants.id, input.tenantIdHeader);
  } else if (host === input.publicHost || host === 'localhost' || host === '127.0.0.1') {
    where = eq(tenants.isMaster, true);
  } else {
    where = eq(sql`lower(${tenants.domain})`, host);
  }
  const [tenant] = await db
    .select()
    .from(tenants)
    .where(and(where, eq(tenants.enabled, true)))
    .limit(1);
  if (!tenant) throw notFound('tenant.unknown_address');
  const googleClientId = tenant.isMaster ? null : (input.googleClientId ?? null);
  return {
    id: tenant.id,
    name: tenant.name,
    domain: tenant.isMaster ? input.publicHost : tenant.domain,
    logoUrl: tenant.logoFileId ? fileUrl(tenant.logoFileId) : null,
    signupEnabled: tenant.allowSignup && !tenant.isMaster,
    // Super administrators never sign in with Google (modules/auth/google.ts), so no button.
    googleEnabled: googleClientId !== null,
    // The console renders Google's button with it, so the web build needs no client id.
    googleClientId,
  };
}
