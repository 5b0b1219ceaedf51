import { WEBHOOK_EVENT_READ_PERMISSIONS, WEBHOOK_TEST_EVENT } from '@tc/contract/webhooks';
import type { Database } from '../db/database';
import { principalById } from '../identity/principal';

/** Whose permissions a delivery keeps to: its endpoint's owner (who created or last saved it). */
export interface DeliveryOwnership {
  tenantId: string;
  ownerId: string | null;
  eventType: string;
}

/**
 * The read permission a delivery's event needs, or null for a test event (it carries only the
 * endpoint). A type this server does not know needs its own name, which nobody holds: such a
 * delivery is skipped rather than sent unchecked.
 */
function readPermissionOf(eventType: string): string | null {
  if (eventType === WEBHOOK_TEST_EVENT) return null;
  const known = WEBHOOK_EVENT_READ_PERMISSIONS as Record<string, string | undefined>;
  return known[eventType] ?? eventType;
}

/**
 * The permission the endpoint's owner lacks NOW to receive this delivery, or null when they
 * may: checked at every attempt, so a role changed, a user deactivated or deleted, or a tenant
 * disabled after the event was queued stops what it carries from leaving.
 */
export async function permissionOwnerLacks(
  db: Database,
  delivery: DeliveryOwnership,
): Promise<string | null> {
  const needed = readPermissionOf(delivery.eventType);
  if (needed === null) return null;
  if (delivery.ownerId === null) return needed;
  const owner = await principalById(db, delivery.tenantId, delivery.ownerId);
  const may =
    owner !== undefined &&
    owner.userActive &&
    owner.tenantEnabled &&
    owner.permissions.includes(needed);
  return may ? null : needed;
}
