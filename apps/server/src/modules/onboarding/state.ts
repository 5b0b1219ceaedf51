import { z } from 'zod';
import { ONBOARDING_STEPS, type Onboarding } from '@tc/contract/onboarding';

/**
 * The progress as kept in tenants.onboarding (jsonb). Read leniently: a missing or damaged
 * value is a tenant that has not started, never a 500.
 */
export const storedSchema = z.object({
  step: z.enum(ONBOARDING_STEPS).catch('welcome'),
  roleId: z.uuid().nullable().catch(null),
  permissionId: z.uuid().nullable().catch(null),
  userId: z.uuid().nullable().catch(null),
  completedAt: z.iso.datetime().nullable().catch(null),
  skippedAt: z.iso.datetime().nullable().catch(null),
});
export type StoredOnboarding = z.infer<typeof storedSchema>;

export const NOT_STARTED: StoredOnboarding = {
  step: 'welcome',
  roleId: null,
  permissionId: null,
  userId: null,
  completedAt: null,
  skippedAt: null,
};

export function parseStored(value: unknown): StoredOnboarding {
  if (value === null || typeof value !== 'object') return NOT_STARTED;
  return storedSchema.parse({ ...NOT_STARTED, ...value });
}

/** What a tenant created before the onboarding was kept (and the demo tenant) is recorded as. */
export const completedAt = (at: Date): StoredOnboarding => ({
  ...NOT_STARTED,
  step: 'complete',
  completedAt: at.toISOString(),
});

export function toOnboarding(stored: StoredOnboarding, mayWrite: boolean): Onboarding {
  const completed = stored.completedAt !== null;
  const skipped = stored.skippedAt !== null;
  return {
    ...stored,
    completed,
    skipped,
    shouldOpen: mayWrite && !completed && !skipped,
  };
}
