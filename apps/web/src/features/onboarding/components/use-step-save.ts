import type { OnboardingUpdate } from '@tc/contract/onboarding';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import {
  createEntity,
  updateEntity,
  useInvalidateEntity,
  type EntityName,
} from '../../../lib/entity-api';
import { useSaveProgress } from '../api/save-progress';

/**
 * "Save and Continue" of a step: creates the step's row, or updates the one it created
 * before (its id is in the saved progress, or in `created` when the row was made but the
 * progress could not be saved), records the progress and goes to the next page.
 */
export function useStepSave(options: {
  entity: Extract<EntityName, 'roles' | 'permissions' | 'users'>;
  savedId: string | null;
  progress: (id: string) => OnboardingUpdate;
  next: string;
}) {
  const navigate = useNavigate();
  const invalidate = useInvalidateEntity();
  const saveProgress = useSaveProgress();
  const created = useRef<string | null>(null);

  return async (values: object, changed: boolean) => {
    let id = options.savedId ?? created.current;
    if (!id) {
      id = (await createEntity<{ id: string }>(options.entity, values)).id;
      created.current = id;
      await invalidate(options.entity);
    } else if (changed) {
      await updateEntity(options.entity, { ...values, id });
      await invalidate(options.entity);
    }
    await saveProgress.mutateAsync(options.progress(id));
    await navigate(options.next);
  };
}
