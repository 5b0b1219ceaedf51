import type { ComponentType } from 'react';
import { listRequest } from '../components/entity-list/use-list-state';
import { defaultSorts, pageQueryOptions, type EntityName } from '../lib/entity-api';
import i18n from '../lib/i18n';
import { getSession } from '../lib/session';
import { paths } from './paths';
import { queryClient } from './query-client';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route props differ per screen
type ScreenModule = { default: ComponentType<any> };

/** Loads once; a failed load (network) may be tried again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/**
 * A screen's code and its texts load together, so it renders once both are there instead of
 * suspending a second time for its translations (each suspension costs a render pass and
 * React's reveal throttling).
 */
const screen = (namespaces: string[], load: () => Promise<ScreenModule>) =>
  once(() => Promise.all([load(), i18n.loadNamespaces(namespaces)]).then(([module]) => module));

export const loadLayout = screen(['lists', 'validation'], () => import('./layout/app-layout'));

export const loadScreen = {
  [paths.home]: screen(
    ['dashboard', 'onboarding'],
    () => import('../features/dashboard/components/home-page'),
  ),
  [paths.tenants]: screen(['tenants'], () => import('../features/tenants/components/tenants-page')),
  [paths.users]: screen(['users'], () => import('../features/users/components/users-page')),
  [paths.roles]: screen(['roles'], () => import('../features/roles/components/roles-page')),
  [paths.permissions]: screen(
    ['permissions'],
    () => import('../features/permissions/components/permissions-page'),
  ),
  [paths.projects]: screen(
    ['projects'],
    () => import('../features/projects/components/projects-page'),
  ),
  onboarding: screen(
    ['onboarding'],
    () => import('../features/onboarding/components/onboarding-page'),
  ),
};

const listOf: Partial<Record<string, EntityName>> = {
  [paths.tenants]: 'tenants',
  [paths.users]: 'users',
  [paths.roles]: 'roles',
  [paths.permissions]: 'permissions',
  [paths.projects]: 'projects',
};

/**
 * Opening the console signed in, on a list: the layout, the screen, its texts and the page
 * of rows it will show all start loading now, in parallel, rather than one after another as
 * each render discovers the next.
 */
export function preloadCurrentScreen(location: Location = window.location) {
  if (!getSession()) return;
  void loadLayout();
  const load = loadScreen[location.pathname as keyof typeof loadScreen];
  if (load) void load();
  const entity = listOf[location.pathname];
  if (entity) {
    const request = listRequest(new URLSearchParams(location.search), defaultSorts[entity]);
    void queryClient.prefetchQuery(pageQueryOptions(entity, request));
  }
}
