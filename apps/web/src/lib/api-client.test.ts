import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { problemResponse } from '../test/problems';
import { seenRequests, server } from '../test/server';
import { demoTenant, signedInEachTest, signOut } from '../test/session';
import { ApiError, apiRequest, apiStream, restoreSession } from './api-client';
import { getAccessToken, getIdToken, getRefreshToken, onSessionEnd } from './session';
import { storeTenant } from './tenant-store';

const signedIn = {
  tokens: { access_token: 'old-access', refresh_token: 'old-refresh' },
  remember: true,
};
const TOKEN_PATH = '/realms/demo/protocol/openid-connect/token';

const bearerOf = (request: Request) => request.headers.get('Authorization');
const unauthorized = () => problemResponse(401, 'auth.session_invalid');
/** The identity provider's token endpoint, handing out the renewed pair. */
const refreshGrants = () =>
  http.post(TOKEN_PATH, () =>
    HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' }),
  );
const apiCalls = () => seenRequests().filter(({ path }) => path.startsWith('/api/'));

describe('apiRequest', () => {
  signedInEachTest(signedIn);

  it('sends the bearer token', async () => {
    server.use(http.get('/api/v1.0/x', () => HttpResponse.json({ data: 1 })));
    await expect(apiRequest('/api/v1.0/x')).resolves.toEqual({ data: 1 });
    expect(seenRequests()[0]?.headers.get('Authorization')).toBe('Bearer old-access');
  });

  it('refreshes exactly once for concurrent 401s and retries each request once', async () => {
    let refreshCalls = 0;
    server.use(
      http.post(TOKEN_PATH, async ({ request }) => {
        refreshCalls += 1;
        const form = new URLSearchParams(await request.text());
        expect(form.get('grant_type')).toBe('refresh_token');
        expect(form.get('refresh_token')).toBe('old-refresh');
        // Long enough for all three 401s to arrive while the refresh is in flight.
        await delay(10);
        return HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' });
      }),
      http.get('/api/v1.0/:name', ({ request }) =>
        bearerOf(request) === 'Bearer new-access'
          ? HttpResponse.json({ data: new URL(request.url).pathname })
          : unauthorized(),
      ),
    );

    const results = await Promise.all([
      apiRequest('/api/v1.0/a'),
      apiRequest('/api/v1.0/b'),
      apiRequest('/api/v1.0/c'),
    ]);

    expect(results).toEqual([
      { data: '/api/v1.0/a' },
      { data: '/api/v1.0/b' },
      { data: '/api/v1.0/c' },
    ]);
    expect(refreshCalls).toBe(1);
    // 3 first tries + 1 refresh + 3 retries.
    expect(seenRequests()).toHaveLength(7);
    expect(getAccessToken()).toBe('new-access');
    expect(localStorage.getItem('refresh_token')).toBe('new-refresh');
  });

  it('retries only once: a second 401 ends the session', async () => {
    server.use(refreshGrants(), http.get('/api/v1.0/a', unauthorized));
    await expect(apiRequest('/api/v1.0/a')).rejects.toBeInstanceOf(ApiError);
    expect(seenRequests()).toHaveLength(3);
    expect(getAccessToken()).toBeNull();
  });

  it('clears the session and tells listeners when the refresh fails', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    server.use(
      http.post(TOKEN_PATH, () =>
        HttpResponse.json(
          { error: 'invalid_grant', error_description: 'Token is not active' },
          { status: 400 },
        ),
      ),
      http.get('/api/v1.0/a', unauthorized),
    );
    const failure = apiRequest('/api/v1.0/a');
    await expect(failure).rejects.toMatchObject({
      status: 401,
      message: 'Your session has expired or is not valid. Sign in again.',
    });
    expect(seenRequests()).toHaveLength(2);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(ended).toHaveBeenCalledWith('expired');
    stop();
  });
});

describe('apiStream', () => {
  signedInEachTest(signedIn);
  const stream = (text: string) =>
    new HttpResponse(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });

  it('returns the unread response, asking for an event stream with the bearer token', async () => {
    server.use(http.post('/api/v1.0/s', () => stream('data: {"done":true}\n\n')));
    const response = await apiStream('/api/v1.0/s', { method: 'POST', body: { a: 1 } });
    await expect(response.text()).resolves.toBe('data: {"done":true}\n\n');
    const [sent] = seenRequests();
    expect(sent?.headers.get('Authorization')).toBe('Bearer old-access');
    expect(sent?.headers.get('Accept')).toBe('text/event-stream');
    expect(await sent!.request.text()).toBe('{"a":1}');
  });

  it('on 401 refreshes once and retries once, like apiRequest', async () => {
    server.use(
      refreshGrants(),
      http.post('/api/v1.0/s', ({ request }) =>
        bearerOf(request) === 'Bearer new-access'
          ? stream('data: {"delta":"hi"}\n\n')
          : unauthorized(),
      ),
    );
    const response = await apiStream('/api/v1.0/s', { method: 'POST', body: {} });
    await expect(response.text()).resolves.toBe('data: {"delta":"hi"}\n\n');
    // First try, refresh, retry.
    expect(seenRequests().map(({ path }) => path)).toEqual([
      '/api/v1.0/s',
      TOKEN_PATH,
      '/api/v1.0/s',
    ]);
    expect(getAccessToken()).toBe('new-access');
  });

  it('throws the problem of a failed answer, with Retry-After in seconds', async () => {
    server.use(
      http.post('/api/v1.0/s', () =>
        problemResponse(
          429,
          'request.too_many',
          { params: { count: 42 } },
          { 'Retry-After': '42' },
        ),
      ),
    );
    await expect(apiStream('/api/v1.0/s', { method: 'POST' })).rejects.toMatchObject({
      status: 429,
      message: 'Too many requests. Try again in 42 seconds.',
      problem: expect.objectContaining({ code: 'request.too_many', params: { count: 42 } }),
      retryAfter: 42,
    });
    expect(apiCalls()).toHaveLength(1);
  });
});

describe('restoreSession (a reload or a new tab: a stored refresh token, no access token)', () => {
  beforeEach(() => {
    signOut();
    storeTenant(demoTenant);
    sessionStorage.setItem('refresh_token', 'stored-refresh');
  });
  afterEach(() => {
    delete (navigator as { locks?: unknown }).locks;
  });

  /** The token endpoint, counting the refresh tokens presented to it. */
  function tokenEndpoint(answer = () => HttpResponse.json(renewed)) {
    const presented: (string | null)[] = [];
    server.use(
      http.post(TOKEN_PATH, async ({ request }) => {
        presented.push(new URLSearchParams(await request.text()).get('refresh_token'));
        await delay(10);
        return answer();
      }),
    );
    return presented;
  }
  const renewed = { access_token: 'new-access', refresh_token: 'new-refresh', id_token: 'new-id' };

  it('refreshes once for concurrent callers; the new tokens are then in use', async () => {
    const presented = tokenEndpoint();
    await Promise.all([restoreSession(), restoreSession()]);
    expect(presented).toEqual(['stored-refresh']);
    expect(getAccessToken()).toBe('new-access');
    expect(getIdToken()).toBe('new-id');
    expect(sessionStorage.getItem('refresh_token')).toBe('new-refresh');
    await restoreSession();
    expect(presented).toHaveLength(1);
  });

  it('holds back a request until the session is restored, so it leaves with the token', async () => {
    tokenEndpoint();
    server.use(http.get('/api/v1.0/x', () => HttpResponse.json({ data: 1 })));
    await expect(apiRequest('/api/v1.0/x')).resolves.toEqual({ data: 1 });
    expect(seenRequests().map(({ path }) => path)).toEqual([TOKEN_PATH, '/api/v1.0/x']);
    expect(bearerOf(seenRequests()[1]!.request)).toBe('Bearer new-access');
  });

  it('a failed restore ends the stored session', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    tokenEndpoint(() => HttpResponse.json({ error: 'invalid_grant' }, { status: 400 }));
    await restoreSession();
    expect(getRefreshToken()).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(ended).toHaveBeenCalledWith('expired');
    stop();
  });

  /** The browser's lock manager as all tabs share it: grants at once, knows what is held. */
  function sharedLocks(onGrant: (name: string) => void = () => undefined) {
    const held = new Set<string>();
    const granted: string[] = [];
    const locks = {
      async request(name: string, ...rest: unknown[]) {
        const callback = rest.at(-1) as () => Promise<unknown>;
        granted.push(name);
        held.add(name);
        onGrant(name);
        try {
          return await callback();
        } finally {
          held.delete(name);
        }
      },
      query: async () => ({ held: [...held].map((name) => ({ name })) }),
    };
    Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
    return granted;
  }

  it('refreshes under the browser-wide lock, reading the refresh token once it holds it', async () => {
    const granted = sharedLocks((name) => {
      // Another tab held the lock first and rotated the token meanwhile.
      if (name === 'tc.token-refresh') sessionStorage.setItem('refresh_token', 'rotated-elsewhere');
    });
    const presented = tokenEndpoint();
    await restoreSession();
    expect(granted[0]).toBe('tc.token-refresh');
    expect(presented).toEqual(['rotated-elsewhere']);
  });

  it('never presents a token another tab has spent: it waits for the successor', async () => {
    sharedLocks();
    const presented = tokenEndpoint();
    await restoreSession();
    // A second tab, whose copy of storage still shows the token the first one spent.
    signOut();
    storeTenant(demoTenant);
    sessionStorage.setItem('refresh_token', 'stored-refresh');
    setTimeout(() => sessionStorage.setItem('refresh_token', 'successor'), 50);
    await restoreSession();
    expect(presented).toEqual(['stored-refresh', 'successor']);
    expect(getAccessToken()).toBe('new-access');
  });
});
