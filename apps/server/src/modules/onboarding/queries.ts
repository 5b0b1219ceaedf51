import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { completedAt, parseStored } from './state';

export async function readStored(db: Database, tenantId: string, lock = false) {
  const query = db
    .select({ onboarding: tenants.onboarding })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  const [row] = await (lock ? query.for('update') : query);
  return parseStored(row?.onboarding ?? null);
}

/** For the demo seed: a tenant that is shown ready-made has nothing to set up. */
export async function markOnboardingComplete(tx: Database, tenantId: string): Promise<void> {
  await tx
    .update(tenants)
    .set({ onboarding: completedAt(new Date()) })
    .where(eq(tenants.id, tenantId));
}
