import { afterEach, beforeEach, vi } from 'vitest';
import { saveTokens } from '../lib/session';

/** A JSON answer as the server sends it. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * Replaces fetch for the tests of the calling describe block, with fresh storage and a
 * signed-in session, so apiRequest sends its bearer token and has no reason to refresh.
 */
export function mockSignedInFetch() {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
    saveTokens({ access_token: 'access', refresh_token: 'refresh' }, false);
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());
  return fetchMock;
}
