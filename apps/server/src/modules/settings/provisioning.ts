import { eq } from 'drizzle-orm';
import type { ProvisioningSettings, ProvisioningSettingsView } from '@tc/contract/provisioning';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { notFound } from '../../http/problem';
import type { Caller } from '../../identity/token-service';
import { recordChange } from '../audit';

/** The tenant's SCIM choices, locked for the rest of the transaction when `lock` is set. */
export async function readProvisioningSettings(
  db: Database,
  tenantId: string,
  lock = false,
): Promise<ProvisioningSettings> {
  const query = db
    .select({ scimNewUsers: tenants.scimNewUsers, scimDelete: tenants.scimDelete })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('tenant.not_found');
  // The columns' check constraints hold them to these values.
  return {
    scimNewUsers: row.scimNewUsers === 'activate' ? 'activate' : 'invite',
    scimDelete: row.scimDelete === 'delete' ? 'delete' : 'deactivate',
  };
}

/** Where the caller's tenant's SCIM server answers: /scim/v2/<realm> under PUBLIC_URL. */
const scimBaseUrl = (publicUrl: string, caller: Caller) =>
  `${publicUrl}/scim/v2/${encodeURIComponent(caller.realm)}`;

export async function getProvisioningSettings({
  db,
  caller,
  publicUrl,
}: {
  db: Database;
  caller: Caller;
  publicUrl: string;
}): Promise<ProvisioningSettingsView> {
  const settings = await readProvisioningSettings(db, caller.tenantId);
  return { ...settings, scimBaseUrl: scimBaseUrl(publicUrl, caller) };
}

/** Replaces the choices; they apply to the next SCIM request. Audited under the tenant's id. */
export async function updateProvisioningSettings({
  db,
  caller,
  data,
  publicUrl,
}: {
  db: Database;
  caller: Caller;
  data: ProvisioningSettings;
  publicUrl: string;
}): Promise<ProvisioningSettingsView> {
  return db.transaction(async (tx) => {
    const before = await readProvisioningSettings(tx, caller.tenantId, true);
    const after: ProvisioningSettings = {
      scimNewUsers: data.scimNewUsers,
      scimDelete: data.scimDelete,
    };
    await tx
      .update(tenants)
      .set({ ...after, updatedAt: new Date() })
      .where(eq(tenants.id, caller.tenantId));
    await recordChange(tx, {
      tenantId: caller.tenantId,
      actorId: caller.userId,
      entity: 'settings',
      action: 'update',
      entityId: caller.tenantId,
      before,
      after,
    });
    return { ...after, scimBaseUrl: scimBaseUrl(publicUrl, caller) };
  });
}
