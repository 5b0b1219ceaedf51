import { and, eq } from 'drizzle-orm';
import { badRequest } from '../../http/problem';
import type { Database } from '../../db/database';
import { rolePermissions, roles } from '../../db/schema/identity';

/** Creates a role holding the given permissions, in the caller's transaction. */
export async function insertRole(
  tx: Database,
  input: {
    tenantId: string;
    name: string;
    description?: string;
    isSystem?: boolean;
    permissionIds: string[];
  },
): Promise<string> {
  const [role] = await tx
    .insert(roles)
    .values({
      tenantId: input.tenantId,
      name: input.name,
      description: input.description ?? null,
      isSystem: input.isSystem ?? false,
    })
    .returning({ id: roles.id });
  if (input.permissionIds.length > 0) {
    await tx.insert(rolePermissions).values(
      input.permissionIds.map((permissionId) => ({
        tenantId: input.tenantId,
        roleId: role!.id,
        permissionId,
      })),
    );
  }
  return role!.id;
}

/**
 * The role `roleId` of this tenant, for other modules that assign roles (users, permissions).
 * A role of another tenant is answered exactly like a missing one.
 */
export async function requireRole(
  db: Database,
  tenantId: string,
  roleId: string,
  field = 'roleId',
): Promise<{ id: string; name: string; status: string; isSystem: boolean }> {
  const [role] = await db
    .select({ id: roles.id, name: roles.name, status: roles.status, isSystem: roles.isSystem })
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.tenantId, tenantId)));
  if (!role) throw badRequest('Choose a role of this tenant.', { [field]: 'Unknown role.' });
  return role;
}
