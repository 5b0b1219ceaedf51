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
