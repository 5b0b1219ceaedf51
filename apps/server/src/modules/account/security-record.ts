import type { Database } from '../../db/database';
import { recordChange } from '../audit';

/**
 * Audits a change to how a user signs in (profile, password, second factors, sessions) as an
 * update of that user, so the user's history shows it. `before` and `after` say what changed
 * and never hold a secret: no hash, no code, no key.
 */
export async function recordSecurityChange(
  tx: Database,
  change: {
    tenantId: string;
    actorId: string;
    userId: string;
    before?: Record<string, unknown>;
    after: Record<string, unknown>;
  },
): Promise<void> {
  await recordChange(tx, {
    tenantId: change.tenantId,
    actorId: change.actorId,
    entity: 'users',
    action: 'update',
    entityId: change.userId,
    before: change.before,
    after: change.after,
  });
}
