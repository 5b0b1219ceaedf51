import type { Problem } from '@tc/contract/problem';
import { requestToken } from './oidc';
import { clearSession, getAccessToken, getRefreshToken, saveTokens } from './session';
import { getRealm } from './tenant-store';

/** An HTTP failure with the server's RFC 9457 problem details when it sent them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problem?: Problem,
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

/** One refresh for all requests that meet a 401 at the same time (spec §4). */
function refreshOnce(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = getRefreshToken();
    const realm = getRealm();
    if (!refreshToken || !realm) return false;
    try {
      const tokens = await requestToken(realm, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
      saveTokens(tokens);
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
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
  throw new ApiError(response.status, message || `HTTP ${response.status}`, problem);
}

/**
 * The one HTTP client of the console: bearer token on every request; on 401 exactly one
 * refresh (shared by concurrent requests) and one retry; when the refresh fails the session
 * is cleared and session listeners take the user to sign-in.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = getAccessToken();
  const response = await send(path, options, token);
  if (response.status !== 401 || !token) return parse<T>(response);

  // Another request may already have refreshed while this one was in flight.
  const current = getAccessToken();
  const renewed = current !== null && current !== token ? true : await refreshOnce();
  if (!renewed) {
    clearSession('expired');
    return parse<T>(response);
  }
  const retry = await send(path, options, getAccessToken());
  if (retry.status === 401) clearSession('expired');
  return parse<T>(retry);
}
