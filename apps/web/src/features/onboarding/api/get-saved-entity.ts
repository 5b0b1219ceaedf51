import { useQuery } from '@tanstack/react-query';
import { entityQueryOptions, type EntityName } from '../../../lib/entity-api';

/**
 * The row a step created earlier (its id is in the saved progress), so going back and on
 * edits it instead of creating a second one. Deleted meanwhile (404): null, the step creates
 * a new one.
 */
export function useSavedEntity<Row>(entity: EntityName, id: string | null | undefined) {
  return useQuery({ ...entityQueryOptions<Row>(entity, id ?? ''), enabled: Boolean(id) });
}
