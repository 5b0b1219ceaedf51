import { eq } from 'drizzle-orm';
import type { Tenant } from '@tc/contract/tenants';
import { tenants } from '../../db/schema/tenants';
import type { ServiceContext } from '../../http/crud-routes';
import { recordChange } from '../audit';
import { deleteFile, storeImage } from '../files';
import { requireTenant, toTenant } from './queries';

/**
 * Points the tenant at a new logo file (or none) and deletes the old file, in one transaction
 * with the audit entry, so no file is left orphaned and no tenant points at a missing file.
 */
async function replaceLogo(
  { db, caller }: ServiceContext,
  id: string,
  bytes: Buffer | undefined,
): Promise<Tenant> {
  return db.transaction(async (tx) => {
    const before = await requireTenant(tx, id, true);
    // The file belongs to the tenant, so it goes with the tenant when that is deleted.
    const stored = bytes ? await storeImage(tx, id, bytes) : undefined;
    const [row] = await tx
      .update(tenants)
      .set({ logoFileId: stored?.id ?? null, updatedAt: new Date() })
      .where(eq(tenants.id, id))
      .returning();
    if (before.logoFileId) await deleteFile(tx, before.logoFileId);
    const tenant = toTenant(row!);
    await recordChange(tx, {
      tenantId: id,
      actorId: caller.userId,
      entity: 'tenants',
      action: 'update',
      entityId: id,
      before: toTenant(before),
      after: tenant,
    });
    return tenant;
  });
}

/** A PNG, JPEG, WebP or GIF of at most 2 MB, recognised from its bytes (else 415 / 413). */
export function setTenantLogo(options: ServiceContext & { id: string; bytes: Buffer }) {
  return replaceLogo(options, options.id, options.bytes);
}

export function removeTenantLogo(options: ServiceContext & { id: string }) {
  return replaceLogo(options, options.id, undefined);
}
