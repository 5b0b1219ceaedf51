import type { z } from 'zod';
import {
  API_BASE_PATH,
  routePath,
  type RouteInput,
  type RouteResult,
  type RouteSpec,
} from '@tc/contract/route';
import { apiRequest } from './api-client';

/** A route's inputs (only those it has), plus what every request may carry. */
export type CallOptions<R extends RouteSpec> = RouteInput<R> & {
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/** No argument needed when the route takes no body, parameters or query. */
type OptionalWhenEmpty<R extends RouteSpec> =
  object extends RouteInput<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

/** A route whose answer is the envelope `{ data: … }`. */
type EnvelopeRoute = RouteSpec & { response: z.ZodType<{ data: unknown }> };
type DataOf<Answer> = Answer extends { data: infer Data } ? Data : never;

/** The URL of a route with its parameters and query filled in. */
export function routeUrl<R extends RouteSpec>(
  route: R,
  { params, query }: { params?: unknown; query?: unknown } = {},
): string {
  const path = `${API_BASE_PATH}${routePath(route, params as Record<string, unknown>)}`;
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Calls a route of the contract's table with the console's client (token, one refresh on
 * 401, problem details as ApiError) and answers the whole body as the server sent it.
 */
export function fetchRoute<R extends RouteSpec>(
  route: R,
  ...[options]: OptionalWhenEmpty<R>
): Promise<RouteResult<R>> {
  const { body, headers, signal } = (options ?? {}) as CallOptions<RouteSpec>;
  return apiRequest<RouteResult<R>>(routeUrl(route, options), {
    method: route.method,
    body,
    headers,
    signal,
  });
}

/** fetchRoute for the usual answer `{ data: … }`: answers its `data`. */
export async function callRoute<R extends EnvelopeRoute>(
  route: R,
  ...options: OptionalWhenEmpty<R>
): Promise<DataOf<RouteResult<R>>> {
  const answer = await fetchRoute(route, ...options);
  return (answer as { data: DataOf<RouteResult<R>> }).data;
}
