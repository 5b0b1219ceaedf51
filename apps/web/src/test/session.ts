import { beforeEach } from 'vitest';
import { clearSession, saveTokens, type StoredTokens } from '../lib/session';
import { storeTenant } from '../lib/tenant-store';

/** The demo tenant as identify answers it: the realm a refresh goes to. */
export const demoTenant = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'demo',
  domain: 'demo.localhost',
  logoUrl: null,
  signupEnabled: true,
  googleEnabled: false,
  googleClientId: null,
  passwordRules: { passwordMinLength: 8, passwordRequireSpecial: true, passwordRefuseCommon: true },
};

/**
 * An unsigned access token carrying the claims the console reads (the server verifies
 * signatures; the console only decodes).
 */
export function accessToken(claims: { permissions?: string[]; superAdmin?: boolean } = {}) {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const payload = {
    sub: '00000000-0000-4000-8000-000000000011',
    permissions: claims.permissions ?? [],
    realm_access: { roles: claims.superAdmin ? ['superAdmin'] : [] },
  };
  return `${encode({ alg: 'none' })}.${encode(payload)}.`;
}

/**
 * No session at all: empty storage and no tokens in memory, where the session module keeps
 * the access and ID tokens (module state outlives a test within its file).
 */
export function signOut() {
  clearSession('logout');
  sessionStorage.clear();
  localStorage.clear();
}

/**
 * Before each test of the calling describe block: fresh storage, the demo tenant and a
 * signed-in session (tokens `access`/`refresh` unless given; `remember` keeps the refresh
 * token in localStorage), so apiRequest sends its bearer token.
 */
export function signedInEachTest({
  tokens,
  remember = false,
}: { tokens?: StoredTokens; remember?: boolean } = {}) {
  beforeEach(() => {
    signOut();
    storeTenant(demoTenant);
    saveTokens(tokens ?? { access_token: 'access', refresh_token: 'refresh' }, remember);
  });
}
