import type { Page, PageRequest } from '@tc/contract/paging';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { clientRoutes } from '@tc/contract/routes/clients';
import type { CrudRoutes } from '@tc/contract/routes/crud';
import { permissionRoutes } from '@tc/contract/routes/permissions';
import { projectRoutes } from '@tc/contract/routes/projects';
import { roleRoutes } from '@tc/contract/routes/roles';
import { tenantRoutes } from '@tc/contract/routes/tenants';
import { userRoutes } from '@tc/contract/routes/users';
import { callRoute } from './api';
import { ApiError } from './api-client';

/** The managed resources; the same name in the API path, events and query keys, so one name finds them all. */
export type EntityName = 'tenants' | 'users' | 'roles' | 'permissions' | 'projects' | 'clients';

/** The order a list starts in; the contract's default sort (users by e-mail). */
export const defaultSorts: Record<EntityName, PageRequest['listSort']> = {
  tenants: { field: 'name', direction: 0 },
  users: { field: 'email', direction: 0 },
  roles: { field: 'name', direction: 0 },
  permissions: { field: 'name', direction: 0 },
  projects: { field: 'name', direction: 0 },
  clients: { field: 'name', direction: 0 },
};

/** Starts loading a page before the screen that shows it has rendered (route preloading). */
export function pageQueryOptions<Row>(entity: EntityName, request: PageRequest) {
  return {
    queryKey: entityKeys.page(entity, request),
    queryFn: ({ signal }: { signal?: AbortSignal }) => fetchPage<Row>(entity, request, signal),
  };
}

/** Each entity's five routes in the contract's table (the delete method among them). */
export const entityRoutes: Record<EntityName, CrudRoutes> = {
  tenants: tenantRoutes,
  users: userRoutes,
  roles: roleRoutes,
  permissions: permissionRoutes,
  projects: projectRoutes,
  clients: clientRoutes,
};

export const entityKeys = {
  all: (entity: EntityName): QueryKey => [entity],
  page: (entity: EntityName, request: PageRequest): QueryKey => [entity, 'page', request],
  detail: (entity: EntityName, id: string): QueryKey => [entity, 'detail', id],
};

export async function fetchPage<Row>(
  entity: EntityName,
  request: PageRequest,
  signal?: AbortSignal,
) {
  return (await callRoute(entityRoutes[entity].page, { body: request, signal })) as Page<Row>;
}

/** One page of a list; the previous page stays shown while the next loads (no grid flicker). */
export function usePage<Row>(entity: EntityName, request: PageRequest, enabled = true) {
  return useQuery({
    ...pageQueryOptions<Row>(entity, request),
    placeholderData: keepPreviousData,
    // The events stream refreshes a list when its data changes, so a page just loaded (or
    // preloaded with the route) is not fetched again on mount.
    staleTime: 15_000,
    enabled,
  });
}

/** How many rows a picker offers at once: one short page of a server search, never the whole list. */
export const PICKER_PAGE_SIZE = 20;

/**
 * One row by id, or null when it is gone (deleted meanwhile, or another tenant's: 404), so a
 * form can show the name of a value it holds without treating a stale id as a failure.
 */
export async function fetchEntity<Row>(
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

/** The query of one row by id (fetchEntity), shared by every screen that shows that row. */
export function entityQueryOptions<Row>(entity: EntityName, id: string) {
  return {
    queryKey: entityKeys.detail(entity, id),
    queryFn: ({ signal }: { signal?: AbortSignal }) => fetchEntity<Row>(entity, id, signal),
  };
}

export async function createEntity<Row>(entity: EntityName, body: unknown) {
  return (await callRoute(entityRoutes[entity].create, { body })) as Row;
}

/** Update is PUT for every entity and answers the updated row. */
export async function updateEntity<Row>(entity: EntityName, body: unknown) {
  return (await callRoute(entityRoutes[entity].update, { body })) as Row;
}

/** With the entity's delete method: DELETE for tenants, POST for the others. */
export async function deleteEntity(entity: EntityName, id: string) {
  await callRoute(entityRoutes[entity].remove, { params: { id } });
}

/**
 * Changes to one entity show in others: a role's name in the users list, a user's name as a
 * project owner, user counts on roles. A change refreshes the lists that display it.
 */
export const affectedBy: Record<EntityName, EntityName[]> = {
  tenants: ['tenants'],
  users: ['users', 'roles', 'projects'],
  // A deleted role leaves the clients that used it as a service role.
  roles: ['roles', 'users', 'permissions', 'clients'],
  permissions: ['permissions', 'roles'],
  projects: ['projects'],
  clients: ['clients'],
};

export function useInvalidateEntity() {
  const client = useQueryClient();
  return (entity: EntityName) =>
    Promise.all(
      affectedBy[entity].map((name) =>
        client.invalidateQueries({ queryKey: entityKeys.all(name) }),
      ),
    );
}

/** A create, update or delete that refreshes the lists it affects once it succeeds. */
export function useEntityMutation<Input, Result>(
  entity: EntityName,
  mutationFn: (input: Input) => Promise<Result>,
) {
  const invalidate = useInvalidateEntity();
  return useMutation({ mutationFn, onSuccess: () => invalidate(entity) });
}

/** What a list screen's dialog confirms: a create, an update or a delete of `id`, by mode. */
export function useDialogSave(entity: EntityName, mode: string, id: string | undefined) {
  return useEntityMutation(entity, (values: unknown) =>
    mode === 'delete'
      ? deleteEntity(entity, id!)
      : mode === 'add'
        ? createEntity(entity, values)
        : updateEntity(entity, values),
  );
}
