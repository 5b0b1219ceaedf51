import { afterEach, beforeEach, vi } from 'vitest';
import { saveTokens, type StoredTokens } from '../lib/session';
import { storeTenant } from '../lib/tenant-store';

/** A JSON answer as the server sends it. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The demo tenant as identify answers it: the realm a refresh goes to. */
export const demoTenant = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'demo',
  domain: 'demo.localhost',
  logoUrl: null,
  signupEnabled: true,
  googleEnabled: false,
  googleClientId: null,
};

/**
 * Replaces fetch for the tests of the calling describe block, with fresh storage, the demo
 * tenant and a signed-in session (tokens `access`/`refresh` unless given; `remember` keeps
 * them in localStorage), so apiRequest sends its bearer token.
 */
export function mockSignedInFetch({
  tokens,
  remember = false,
}: { tokens?: StoredTokens; remember?: boolean } = {}) {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
    storeTenant(demoTenant);
    saveTokens(tokens ?? { access_token: 'access', refresh_token: 'refresh' }, remember);
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());
  return fetchMock;
}
