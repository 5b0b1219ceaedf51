import type { Problem } from '@tc/contract/problem';
import { requestToken } from './oidc';
import { withRefreshLock } from './refresh-lock';
import { clearSession, getAccessToken, getRefreshToken, saveTokens } from './session';
import { getRealm } from './tenant-store';

/** An HTTP failure with the server's RFC 9457 problem details when it sent them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problem?: Problem,
    /** Seconds from the Retry-After header of a 429 or 503 (RFC 9110 §10.2.3), if sent. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

let refreshing: Promise<boolean> | null = null;

/**
 * One refresh for all requests that meet a 401 at the same time: a refresh token works once.
 * Across tabs, withRefreshLock keeps two from presenting the same one.
 */
function refreshOnce(): Promise<boolean> {
  refreshing ??= withRefreshLock(async (refreshToken) => {
    const realm = getRealm();
    if (!refreshToken || !realm) return false;
    try {
      // The answer's id_token, when the provider sends one, is kept for the logout hint.
      const tokens = await requestToken(realm, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
      saveTokens(tokens);
      return true;
    } catch {
      return false;
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

let restoring: Promise<void> | null = null;

/**
 * A page load or a new tab finds the stored refresh token but no access token (that one lives
 * in memory only): one refresh, shared by every caller, before anything asks the API. When it
 * fails the stored session ends ('expired'). Until the tenant is known there is no realm to
 * refresh against: this answers at once, and main.tsx calls it again after the tenant check.
 */
export function restoreSession(): Promise<void> {
  if (restoring) return restoring;
  if (getAccessToken() || !getRefreshToken() || !getRealm()) return Promise.resolve();
  restoring = refreshOnce()
    .then((renewed) => {
      if (!renewed) clearSession('expired');
    })
    .finally(() => {
      restoring = null;
    });
  return restoring;
}

function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  // A file (a logo) goes as its raw bytes under its own type; anything else as JSON.
  if (options.body instanceof Blob) {
    headers['Content-Type'] = options.body.type || 'application/octet-stream';
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal });
}

async function parse<T>(response: Response): Promise<T> {
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : undefined;
  if (response.ok) return json as T;
  const problem = json && typeof json === 'object' ? (json as Problem) : undefined;
  const message = problem?.detail ?? problem?.title ?? response.statusText;
  throw new ApiError(
    response.status,
    message || `HTTP ${response.status}`,
    problem,
    retryAfterSeconds(response.headers.get('Retry-After')),
  );
}

/** Retry-After is delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim())
    ? Number(value)
    : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) ? Math.max(0, seconds) : undefined;
}

/**
 * Sends with the bearer token (restoring a stored session first); on 401 exactly one refresh
 * (shared by concurrent requests) and one retry; when the refresh fails the session is cleared
 * and session listeners take the user to sign-in. The answer is returned unread, so callers
 * may parse it or stream it.
 */
async function authorizedFetch(path: string, options: RequestOptions): Promise<Response> {
  // No request leaves without the token while a stored session is being restored.
  if (!getAccessToken()) await restoreSession();
  const token = getAccessToken();
  const response = await send(path, options, token);
  if (response.status !== 401 || !token) return response;

  // Another request may already have refreshed while this one was in flight.
  const current = getAccessToken();
  const renewed = current !== null && current !== token ? true : await refreshOnce();
  if (!renewed) {
    clearSession('expired');
    return response;
  }
  const retry = await send(path, options, getAccessToken());
  if (retry.status === 401) clearSession('expired');
  return retry;
}

/** The one HTTP client of the console for JSON answers (see authorizedFetch). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return parse<T>(await authorizedFetch(path, options));
}

/**
 * The same client for streamed answers (server-sent events read with fetch, since EventSource
 * cannot send a body or a bearer token): the successful Response with its body unread, or an
 * ApiError with the problem details, as apiRequest throws it.
 */
export async function apiStream(path: string, options: RequestOptions = {}): Promise<Response> {
  const response = await authorizedFetch(path, {
    ...options,
    headers: { Accept: 'text/event-stream', ...options.headers },
  });
  if (!response.ok) await parse(response);
  return response;
}
