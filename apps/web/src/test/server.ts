import { setupServer } from 'msw/node';

/**
 * The API as the web tests meet it. It answers nothing by itself: each test states the
 * answers it needs with `server.use(...)`, and any request no handler answers fails the test.
 */
export const server = setupServer();

export interface SeenRequest {
  method: string;
  /** Path and query, as the console wrote it (`/api/v1.0/roles/page`). */
  path: string;
  headers: Headers;
  /** An unread copy of the request, for asserting on its body. */
  request: Request;
}

const seen: SeenRequest[] = [];

/** Every request the server received in the current test, in order. */
export const seenRequests = (): readonly SeenRequest[] => seen;

/** Records each request before a handler reads it; the setup calls this once. */
export function recordRequests() {
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: request.headers,
      request: request.clone(),
    });
  });
}

export function forgetRequests() {
  seen.length = 0;
}

/** The JSON bodies of the requests sent to `path`, in order. */
export async function bodiesSentTo(path: string): Promise<unknown[]> {
  const matching = seen.filter((entry) => entry.path === path);
  return Promise.all(matching.map((entry) => entry.request.clone().json() as Promise<unknown>));
}
