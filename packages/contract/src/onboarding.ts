import { z } from 'zod';
import { envelope } from './problem';

/**
 * The onboarding wizard's progress, kept on the server per tenant, so a reload
 * resumes at the right step and completion is recorded for the tenant.
 *
 * - `GET /api/v1.0/onboarding`: any user of the tenant (super administrators get 403).
 * - `PUT /api/v1.0/onboarding` {@link onboardingUpdateSchema}: saves the step reached and the
 *   ids of what the wizard created; `step: 'complete'` records completion (once; reopening
 *   the wizard later keeps it).
 * - `POST /api/v1.0/onboarding/skip`: "not now"; the wizard stops opening by itself but can
 *   still be reopened and finished.
 *
 * Writing needs every permission the wizard uses ({@link ONBOARDING_PERMISSIONS}): it creates
 * a role, a permission and a user through the roles, permissions and users APIs.
 * A tenant that existed before the onboarding was kept, and the demo tenant, count as
 * completed; a tenant created since starts at `welcome`.
 */
export const ONBOARDING_STEPS = [
  'welcome',
  'first-step',
  'second-step',
  'third-step',
  'complete',
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const ONBOARDING_PERMISSIONS = ['roles:write', 'permissions:write', 'users:write'] as const;

const createdId = () => z.uuid('id.not_valid').nullable().optional();

/** Ids left out keep their saved value; `null` forgets it. */
export const onboardingUpdateSchema = z
  .object({
    step: z.enum(ONBOARDING_STEPS, 'onboarding.step_invalid'),
    roleId: createdId(),
    permissionId: createdId(),
    userId: createdId(),
  })
  .meta({ id: 'OnboardingUpdate' });
export type OnboardingUpdate = z.infer<typeof onboardingUpdateSchema>;

export const onboardingSchema = z
  .object({
    /** The step to resume at. */
    step: z.enum(ONBOARDING_STEPS),
    completed: z.boolean(),
    completedAt: z.string().nullable(),
    skipped: z.boolean(),
    skippedAt: z.string().nullable(),
    /** Open the wizard by itself: not completed, not skipped, and the caller may do it. */
    shouldOpen: z.boolean(),
    /** What the wizard created so far (role of step 1, permission of step 2, user of step 3). */
    roleId: z.uuid().nullable(),
    permissionId: z.uuid().nullable(),
    userId: z.uuid().nullable(),
  })
  .meta({ id: 'Onboarding' });
export type Onboarding = z.infer<typeof onboardingSchema>;

export const onboardingResponseSchema = envelope(onboardingSchema);
