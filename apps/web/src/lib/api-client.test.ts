import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, apiStream } from './api-client';
import { getAccessToken, getRefreshToken, onSessionEnd, saveTokens } from './session';
import { jsonResponse, mockSignedInFetch } from '../test/fetch-mock';

const json = jsonResponse;
const signedIn = {
  tokens: { access_token: 'old-access', refresh_token: 'old-refresh' },
  remember: true,
};

function bearerOf(init: RequestInit | undefined): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.Authorization;
}

describe('apiRequest', () => {
  const fetchMock = mockSignedInFetch(signedIn);

  it('sends the bearer token', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: 1 }));
    await expect(apiRequest('/api/v1.0/x')).resolves.toEqual({ data: 1 });
    expect(bearerOf(fetchMock.mock.calls[0]?.[1])).toBe('Bearer old-access');
  });

  it('refreshes exactly once for concurrent 401s and retries each request once', async () => {
    let refreshCalls = 0;
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.endsWith('/protocol/openid-connect/token')) {
        refreshCalls += 1;
        const form = new URLSearchParams(String(init?.body));
        expect(form.get('grant_type')).toBe('refresh_token');
        expect(form.get('refresh_token')).toBe('old-refresh');
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
      }
      return bearerOf(init) === 'Bearer new-access'
        ? json(200, { data: url })
        : json(401, { status: 401, title: 'Unauthorized' });
    });

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
    const tokenCall = fetchMock.mock.calls.find(([url]) => String(url).includes('/realms/'));
    expect(String(tokenCall?.[0])).toBe('/realms/demo/protocol/openid-connect/token');
    // 3 first tries + 1 refresh + 3 retries.
    expect(fetchMock).toHaveBeenCalledTimes(7);
    expect(getAccessToken()).toBe('new-access');
    expect(localStorage.getItem('refresh_token')).toBe('new-refresh');
  });

  it('retries only once: a second 401 ends the session', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('/realms/')
        ? json(200, { access_token: 'new-access', refresh_token: 'new-refresh' })
        : json(401, { status: 401, title: 'Unauthorized' }),
    );
    await expect(apiRequest('/api/v1.0/a')).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(getAccessToken()).toBeNull();
  });

  it('clears the session and tells listeners when the refresh fails', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('/realms/')
        ? json(400, { error: 'invalid_grant', error_description: 'Token is not active' })
        : json(401, { status: 401, title: 'Unauthorized', detail: 'Token expired' }),
    );
    const failure = apiRequest('/api/v1.0/a');
    await expect(failure).rejects.toMatchObject({ status: 401, message: 'Token expired' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(ended).toHaveBeenCalledWith('expired');
    stop();
  });

  it('without remember-me the tokens live in sessionStorage only', () => {
    localStorage.clear();
    saveTokens({ access_token: 'a', refresh_token: 'r' }, false);
    expect(sessionStorage.getItem('access_token')).toBe('a');
    expect(localStorage.getItem('access_token')).toBeNull();
  });
});

describe('apiStream', () => {
  const fetchMock = mockSignedInFetch(signedIn);
  const stream = (text: string) =>
    new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });

  it('returns the unread response, asking for an event stream with the bearer token', async () => {
    fetchMock.mockResolvedValueOnce(stream('data: {"done":true}\n\n'));
    const response = await apiStream('/api/v1.0/s', { method: 'POST', body: { a: 1 } });
    await expect(response.text()).resolves.toBe('data: {"done":true}\n\n');
    const init = fetchMock.mock.calls[0]?.[1];
    expect(bearerOf(init)).toBe('Bearer old-access');
    expect((init?.headers as Record<string, string>).Accept).toBe('text/event-stream');
    expect(init?.body).toBe('{"a":1}');
  });

  it('on 401 refreshes once and retries once, like apiRequest', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/realms/')) {
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
      }
      return bearerOf(init) === 'Bearer new-access'
        ? stream('data: {"delta":"hi"}\n\n')
        : json(401, { status: 401, title: 'Unauthorized' });
    });
    const response = await apiStream('/api/v1.0/s', { method: 'POST', body: {} });
    await expect(response.text()).resolves.toBe('data: {"delta":"hi"}\n\n');
    // First try, refresh, retry.
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(getAccessToken()).toBe('new-access');
  });

  it('throws the problem of a failed answer, with Retry-After in seconds', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ status: 429, title: 'Too Many Requests', detail: 'Wait.' }), {
        status: 429,
        headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '42' },
      }),
    );
    await expect(apiStream('/api/v1.0/s', { method: 'POST' })).rejects.toMatchObject({
      status: 429,
      message: 'Wait.',
      retryAfter: 42,
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
