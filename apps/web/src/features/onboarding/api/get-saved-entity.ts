import { useQuery } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { entityKeys, entityRoutes, type EntityName } from '../../../lib/entity-api';

/**
 * The row a step created earlier (its id is in the saved progress), so going back and on
 * edits it instead of creating a second one. Deleted meanwhile (404): null, the step creates
 * a new one.
 */
export async function fetchSavedEntity<Row>(
  entity: EntityName,
  id: string,
  signal?: AbortSignal,
): Promise<Row | null> {
  try {
    return (await callRoute(entityRoutes[entity].get, { params: { id }, signal })) as Row;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function useSavedEntity<Row>(entity: EntityName, id: string | null | undefined) {
  return useQuery({
    queryKey: entityKeys.detail(entity, id ?? ''),
    queryFn: ({ signal }) => fetchSavedEntity<Row>(entity, id!, signal),
    enabled: Boolean(id),
  });
}
