import type { E2eEnv } from './env';

/** JSON calls to /api/v1.0 and password grants, as the console makes them (docs/api-conventions.md). */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Api = <T = unknown>(method: Method, path: string, body?: unknown) => Promise<T>;
export interface Credentials {
  email: string;
  password: string;
}

/** A failed API call; `problem` is the RFC 9457 body, so specs can assert on its fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(problem)}`);
  }
}

/** Calls as one user: `token()` grants a new access token, `api` reuses one. */
export interface Session {
  token(): Promise<string>;
  api: Api;
}

/** The `data` of a JSON answer, or an ApiError with the problem body. */
export async function callApi<T>(
  baseUrl: string,
  init: { method: Method; path: string; body?: unknown; headers?: Record<string, string> },
): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v1.0${init.path}`, {
    method: init.method,
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as { data?: unknown }) : {};
  if (!response.ok) throw new ApiError(response.status, json, `${init.method} ${init.path}`);
  return json.data as T;
}

/** A password grant at a realm's token endpoint; throws unless it succeeds. */
export async function passwordGrant(env: E2eEnv, realm: string, who: Credentials) {
  const response = await fetch(`${env.adminUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: 'react-client',
      grant_type: 'password',
      username: who.email,
      password: who.password,
    }),
  });
  const body = (await response.json()) as {
    access_token?: string;
    refresh_token?: string;
    expires_in?: number;
  };
  if (!response.ok || !body.access_token) {
    throw new ApiError(response.status, body, `sign-in of ${who.email} at realm ${realm}`);
  }
  return {
    token: body.access_token,
    refreshToken: body.refresh_token ?? '',
    expiresAt: Date.now() + (body.expires_in ?? 60) * 1000,
  };
}

/** An Api as one user; one token is shared by parallel calls until shortly before it expires. */
export function apiAs(env: E2eEnv, realm: string, who: Credentials): Session {
  let current: ReturnType<typeof passwordGrant> | undefined;
  let expiresAt = 0;
  const token = async () => (await passwordGrant(env, realm, who)).token;
  const api: Api = async (method, path, body) => {
    if (!current || expiresAt - Date.now() < 10_000) {
      const grant = passwordGrant(env, realm, who);
      // Until it answers, parallel calls share this grant; a failed one is not kept.
      current = grant;
      expiresAt = Infinity;
      void grant.then(
        (answer) => {
          expiresAt = answer.expiresAt;
        },
        () => {
          if (current === grant) current = undefined;
        },
      );
    }
    const authorization = `Bearer ${(await current).token}`;
    return callApi(env.adminUrl, { method, path, body, headers: { authorization } });
  };
  return { token, api };
}
