import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthPageError } from '@tc/contract/auth-page';

/** The browser's headers an inner request carries, so it is counted and recorded as the post. */
const PASSED_ON = [
  'host',
  'cookie',
  'user-agent',
  'accept-language',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
] as const;

export interface InsideAnswer {
  status: number;
  body: unknown;
  location: string | undefined;
  /** The cookies the inner route set, to be set on the browser as they are. */
  setCookies: string[];
}

/**
 * A form posted without script does what the page's script would: the same request to the
 * same route (the sign-in steps, the account API), made inside this process for the browser —
 * its address, cookies and language — so rate limits, lockout, validation and answers are the
 * routes' own and written once.
 */
export async function callInside(
  app: FastifyInstance,
  request: FastifyRequest,
  call: {
    method: 'GET' | 'POST';
    url: string;
    form?: Record<string, string>;
    json?: unknown;
    /** Cookies to send besides the browser's (those an earlier inner answer set). */
    cookies?: string[];
  },
): Promise<InsideAnswer> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_ON) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (call.cookies?.length) {
    const added = call.cookies.map((cookie) => cookie.split(';')[0]!).join('; ');
    headers['cookie'] = headers['cookie'] ? `${headers['cookie']}; ${added}` : added;
  }
  let payload: string | undefined;
  if (call.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(call.form).toString();
  } else if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(call.json);
  }
  const response = await app.inject({
    method: call.method,
    url: call.url,
    headers,
    payload,
    remoteAddress: request.socket.remoteAddress,
  });
  const setCookie = response.headers['set-cookie'];
  let body: unknown;
  try {
    body = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    body = undefined;
  }
  return {
    status: response.statusCode,
    body,
    location: response.headers.location,
    setCookies: setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie],
  };
}

/** A refused inner request as the page shows it: an OAuth error or an API problem. */
export function pageErrorOf(answer: InsideAnswer): AuthPageError {
  const body = (answer.body ?? {}) as Record<string, unknown>;
  if (typeof body['error'] === 'string') {
    return {
      kind: 'oauth',
      error: body['error'],
      description: typeof body['error_description'] === 'string' ? body['error_description'] : '',
    };
  }
  return {
    kind: 'problem',
    status: answer.status,
    code: typeof body['code'] === 'string' ? body['code'] : 'request.failed',
    ...(body['params'] ? { params: body['params'] as Record<string, string | number> } : {}),
    ...(body['fields'] ? { fields: body['fields'] as never } : {}),
  };
}
