import { and, eq } from 'drizzle-orm';
import {
  ONBOARDING_PERMISSIONS,
  type Onboarding,
  type OnboardingUpdate,
} from '@tc/contract/onboarding';
import type { Database } from '../../db/database';
import { permissions } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';
import { badRequest, forbidden } from '../../http/problem';
import type { Caller } from '../../identity/token-service';
import { recordChange } from '../audit';
import { requireRole } from '../roles';
import { requireUsersInTenant } from '../users';
import { toOnboarding, type StoredOnboarding } from './state';
import { readStored } from './queries';

export const ENTITY = 'onboarding';

interface Context {
  db: Database;
  caller: Caller;
}

/** The wizard creates a role, a permission and a user: whoever runs it needs all three. */
const mayRunWizard = (caller: Caller) =>
  ONBOARDING_PERMISSIONS.every((name) => caller.permissions.includes(name));

function requireWizardPermissions(caller: Caller) {
  if (!mayRunWizard(caller)) {
    throw forbidden('onboarding.permissions_required', {
      permissions: ONBOARDING_PERMISSIONS.join(', '),
    });
  }
}

export async function getOnboarding({ db, caller }: Context): Promise<Onboarding> {
  return toOnboarding(await readStored(db, caller.tenantId), mayRunWizard(caller));
}

/**
 * Ids the wizard reports must be of the caller's tenant (as every other API answers for a
 * foreign id); the permissions module has no lookup to call, so it is checked here.
 */
async function checkIds(tx: Database, tenantId: string, data: OnboardingUpdate) {
  if (data.roleId) await requireRole(tx, tenantId, data.roleId);
  if (data.userId) await requireUsersInTenant(tx, tenantId, [data.userId], 'userId');
  if (data.permissionId) {
    const [found] = await tx
      .select({ id: permissions.id })
      .from(permissions)
      .where(and(eq(permissions.id, data.permissionId), eq(permissions.tenantId, tenantId)));
    if (!found) {
      throw badRequest('permission.not_in_tenant', {}, { permissionId: 'permission.unknown' });
    }
  }
}

/**
 * Saves the step reached and what was created. Completion is recorded once (and audited, so
 * open consoles hear of it); later saves move the step without undoing it.
 */
export async function saveOnboarding({
  db,
  caller,
  data,
}: Context & { data: OnboardingUpdate }): Promise<Onboarding> {
  requireWizardPermissions(caller);
  return db.transaction(async (tx) => {
    await checkIds(tx, caller.tenantId, data);
    const before = await readStored(tx, caller.tenantId, true);
    const after: StoredOnboarding = {
      ...before,
      step: data.step,
      roleId: data.roleId === undefined ? before.roleId : data.roleId,
      permissionId: data.permissionId === undefined ? before.permissionId : data.permissionId,
      userId: data.userId === undefined ? before.userId : data.userId,
    };
    if (data.step === 'complete' && !before.completedAt) {
      after.completedAt = new Date().toISOString();
    }
    await write(tx, caller, before, after);
    return toOnboarding(after, true);
  });
}

/** "Not now": the wizard no longer opens by itself; it can still be reopened and finished. */
export async function skipOnboarding({ db, caller }: Context): Promise<Onboarding> {
  requireWizardPermissions(caller);
  return db.transaction(async (tx) => {
    const before = await readStored(tx, caller.tenantId, true);
    const after = { ...before };
    if (!before.completedAt && !before.skippedAt) after.skippedAt = new Date().toISOString();
    await write(tx, caller, before, after);
    return toOnboarding(after, true);
  });
}

async function write(
  tx: Database,
  caller: Caller,
  before: StoredOnboarding,
  after: StoredOnboarding,
) {
  await tx.update(tenants).set({ onboarding: after }).where(eq(tenants.id, caller.tenantId));
  // Only the milestones are audited: a step forward is progress, not a change of the tenant.
  if (before.completedAt !== after.completedAt || before.skippedAt !== after.skippedAt) {
    await recordChange(tx, {
      tenantId: caller.tenantId,
      actorId: caller.userId,
      entity: ENTITY,
      action: 'update',
      entityId: caller.tenantId,
      before,
      after,
    });
  }
}
