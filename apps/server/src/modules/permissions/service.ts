import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import type { Database } from '../../db/database';
import { permissions } from '../../db/schema/identity';

/** Seeds the system permissions of a new tenant; returns their ids by name. */
export async function createSystemPermissions(
  tx: Database,
  tenantId: string,
): Promise<Map<string, string>> {
  const rows = await tx
    .insert(permissions)
    .values(SYSTEM_PERMISSIONS.map((name) => ({ tenantId, name, isSystem: true })))
    .returning({ id: permissions.id, name: permissions.name });
  return new Map(rows.map((row) => [row.name, row.id]));
}
