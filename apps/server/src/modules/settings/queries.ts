import { eq } from 'drizzle-orm';
import type { MfaPolicy, SecurityPolicy } from '@tc/contract/security';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { notFound } from '../../http/problem';

const policyColumns = {
  mfaPolicy: tenants.mfaPolicy,
  passwordMinLength: tenants.passwordMinLength,
  passwordRequireSpecial: tenants.passwordRequireSpecial,
  passwordRefuseCommon: tenants.passwordRefuseCommon,
};

/** The tenant's security policy, locked for the rest of the transaction when `lock` is set. */
export async function readSecurityPolicy(
  db: Database,
  tenantId: string,
  lock = false,
): Promise<SecurityPolicy> {
  const query = db.select(policyColumns).from(tenants).where(eq(tenants.id, tenantId));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('tenant.not_found');
  // The column's check constraint holds it to the three policies.
  return { ...row, mfaPolicy: row.mfaPolicy as MfaPolicy };
}

export async function writeSecurityPolicy(
  db: Database,
  tenantId: string,
  policy: SecurityPolicy,
): Promise<void> {
  await db
    .update(tenants)
    .set({
      mfaPolicy: policy.mfaPolicy,
      passwordMinLength: policy.passwordMinLength,
      passwordRequireSpecial: policy.passwordRequireSpecial,
      passwordRefuseCommon: policy.passwordRefuseCommon,
      updatedAt: new Date(),
    })
    .where(eq(tenants.id, tenantId));
}
