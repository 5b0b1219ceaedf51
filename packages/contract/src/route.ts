import type { z } from 'zod';
import type { SystemPermission } from './permissions';

/** Where every JSON route of the API lives; route paths below are relative to it. */
export const API_BASE_PATH = '/api/v1.0';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route, as the server's auth guard decides it:
 * - `'public'`: no token needed (sign-up, password reset, tenant lookup);
 * - `'authenticated'`: any signed-in user of any realm, super administrators included;
 * - `'super-admin'`: super administrators of the master realm only (tenant management);
 * - `'tenant-user'`: any signed-in user of a tenant, whatever their permissions;
 * - a permission name: a tenant user whose token grants it.
 * Tenant data is never open to super administrators, hence `'tenant-user'` is not
 * `'authenticated'`.
 */
export type RoutePermission =
  'public' | 'authenticated' | 'super-admin' | 'tenant-user' | SystemPermission;

/** The status codes a route may answer with a problem document instead of its success. */
export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

export interface RouteSpec {
  method: HttpMethod;
  /** Relative to API_BASE_PATH, parameters as `:name`: `/users/:id`. */
  path: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Headers the route reads (validated on the server; sent by the console as it needs). */
  headers?: z.ZodType;
  /** The successful answer as the server sends it, usually the envelope `{ data: … }`. */
  response: z.ZodType;
  /** The success status: 201 for a create, 202 for "accepted, a mail follows". */
  status?: 200 | 201 | 202;
  permission: RoutePermission;
  /** Problem answers besides the ones every such route has (see problemStatuses). */
  problems?: readonly ProblemStatus[];
  /** One line for the API documentation. */
  summary?: string;
  description?: string;
}

/** Keeps the literal types of a route's schemas, so both ends infer them. */
export const defineRoute = <const Spec extends RouteSpec>(spec: Spec): Spec => spec;

/**
 * The problem answers a route may give: 400 when something is validated, 401 when a token is
 * needed, 403 when not every signed-in user passes, plus the route's own.
 */
export function problemStatuses(route: RouteSpec): ProblemStatus[] {
  const statuses = new Set<ProblemStatus>();
  if (route.body || route.query || route.params) statuses.add(400);
  if (route.permission !== 'public') statuses.add(401);
  if (route.permission !== 'public' && route.permission !== 'authenticated') statuses.add(403);
  for (const status of route.problems ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives, as validated (and transformed) by the route's schemas. */
export type RouteBody<R extends RouteSpec> = OutputOf<R['body']>;
export type RouteQuery<R extends RouteSpec> = OutputOf<R['query']>;
export type RouteParams<R extends RouteSpec> = OutputOf<R['params']>;
export type RouteHeaders<R extends RouteSpec> = OutputOf<R['headers']>;
/** What a handler returns: the success answer before serialization. */
export type RouteAnswer<R extends RouteSpec> = z.input<R['response']>;
/** What the console receives: the answer as serialized JSON, parsed. */
export type RouteResult<R extends RouteSpec> = z.output<R['response']>;

/** What the console sends: the inputs of the route's schemas, only those it has. */
export type RouteInput<R extends RouteSpec> = (R['body'] extends z.ZodType
  ? { body: InputOf<R['body']> }
  : { body?: undefined }) &
  (R['params'] extends z.ZodType ? { params: InputOf<R['params']> } : { params?: undefined }) &
  (R['query'] extends z.ZodType ? { query: InputOf<R['query']> } : { query?: undefined });

/** `/users/:id` with `{ id: 'a b' }` → `/users/a%20b`; a missing parameter is a bug. */
export function routePath(route: RouteSpec, params?: Record<string, unknown>): string {
  return route.path.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) {
      throw new Error(`The route ${route.path} needs the parameter "${name}".`);
    }
    return encodeURIComponent(String(value));
  });
}
