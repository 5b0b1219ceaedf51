import { and, eq } from 'drizzle-orm';
import { ADMIN_ROLE } from '@tc/contract/permissions';
import type { Database } from '../../db/database';
import { permissions, rolePermissions, roles } from '../../db/schema/identity';
import type { ScimClient } from './auth';
import { forbidden } from './errors';

/**
 * Nobody grants what they do not hold, applications included: putting a user into a group
 * (giving them its role), and changing or removing a user who holds a role, need the
 * application's service roles to hold every permission of that role. The built-in Admin role
 * stands for every permission of the tenant, custom ones too.
 */
export async function requireHoldsRole(
  tx: Database,
  client: ScimClient,
  roleId: string,
  doing: string,
): Promise<void> {
  const [role] = await tx
    .select({ name: roles.name, isSystem: roles.isSystem })
    .from(roles)
    .where(and(eq(roles.tenantId, client.tenantId), eq(roles.id, roleId)));
  if (!role) return;
  const needed =
    role.isSystem && role.name === ADMIN_ROLE
      ? tx
          .select({ name: permissions.name })
          .from(permissions)
          .where(eq(permissions.tenantId, client.tenantId))
      : tx
          .select({ name: permissions.name })
          .from(rolePermissions)
          .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
          .where(eq(rolePermissions.roleId, roleId));
  const missing = (await needed)
    .map((row) => row.name)
    .filter((name) => !client.permissions.has(name));
  if (missing.length > 0) {
    throw forbidden(
      `${doing} needs the permissions of the role "${role.name}", which the application does not hold: ${missing.sort().join(', ')}`,
    );
  }
}
