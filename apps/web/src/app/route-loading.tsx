import type { ComponentType } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { listRequest } from '../components/entity-list/use-list-state';
import { restoreSession } from '../lib/api-client';
import { defaultSorts, pageQueryOptions, type EntityName } from '../lib/entity-api';
import i18n from '../lib/i18n';
import { getSession } from '../lib/session';
import { queryClient } from './query-client';
import { isAllowed, type RoutePermission } from './route-access';

interface ScreenModule<Props> {
  default: ComponentType<Props>;
}

/**
 * A route's `lazy`: the screen's code and its texts load together, so it renders once both
 * are there instead of suspending a second time for its translations.
 */
export function lazyScreen(
  namespaces: string[],
  load: () => Promise<ScreenModule<Record<string, never>>>,
) {
  return async () => {
    const [module] = await Promise.all([load(), i18n.loadNamespaces(namespaces)]);
    return { Component: module.default };
  };
}

/** As lazyScreen, for a screen that takes props: the route renders it with these. */
export function lazyScreenWith<Props extends object>(
  namespaces: string[],
  load: () => Promise<ScreenModule<Props>>,
  props: Props,
) {
  return async () => {
    const [{ default: Screen }] = await Promise.all([load(), i18n.loadNamespaces(namespaces)]);
    return { element: <Screen {...props} /> };
  };
}

/**
 * A list route's loader: the page of rows the screen asks for first (from the address's page,
 * size, sort and search) starts loading with the screen's code, into the query cache the screen
 * reads. It only warms that cache: a user who may not read the list asks nothing (the guard
 * sends them away), and a failed request leaves the screen to show its own error.
 */
export function listLoader(entity: EntityName, permission: RoutePermission | undefined) {
  return async ({ request }: LoaderFunctionArgs) => {
    // Loaders run as the router is made, before main.tsx has restored a stored session.
    await restoreSession();
    if (!isAllowed(getSession(), permission)) return null;
    const page = listRequest(new URL(request.url).searchParams, defaultSorts[entity]);
    await queryClient.ensureQueryData(pageQueryOptions(entity, page)).catch(() => undefined);
    return null;
  };
}

/**
 * A list's page, sort and search are the screen's own queries once it is open: its loader runs
 * on entering the route, not again for each change of the address's parameters, which would
 * hold the address back until the new page had arrived.
 */
export const enteringOnly = () => false;
