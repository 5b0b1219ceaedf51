import type { SecurityPolicy } from '@tc/contract/security';
import type { Database } from '../../db/database';
import type { Caller } from '../../identity/token-service';
import { recordChange } from '../audit';
import { readSecurityPolicy, writeSecurityPolicy } from './queries';

/** Audit entries and change events of the tenant's settings, filed under the tenant's id. */
export const ENTITY = 'settings';

interface Context {
  db: Database;
  caller: Caller;
}

/** Always the caller's own tenant: no request names a tenant, so none reaches another. */
export function getSecurityPolicy({ db, caller }: Context): Promise<SecurityPolicy> {
  return readSecurityPolicy(db, caller.tenantId);
}

/**
 * Replaces the policy. It applies from the next password set and the next sign-in: passwords
 * already set stay valid, and a second factor newly required is asked for at sign-in.
 */
export async function updateSecurityPolicy({
  db,
  caller,
  data,
}: Context & { data: SecurityPolicy }): Promise<SecurityPolicy> {
  return db.transaction(async (tx) => {
    const before = await readSecurityPolicy(tx, caller.tenantId, true);
    const after: SecurityPolicy = {
      mfaPolicy: data.mfaPolicy,
      passwordMinLength: data.passwordMinLength,
      passwordRequireSpecial: data.passwordRequireSpecial,
      passwordRefuseCommon: data.passwordRefuseCommon,
    };
    await writeSecurityPolicy(tx, caller.tenantId, after);
    await recordChange(tx, {
      tenantId: caller.tenantId,
      actorId: caller.userId,
      entity: ENTITY,
      action: 'update',
      entityId: caller.tenantId,
      before,
      after,
    });
    return after;
  });
}
