import { beforeEach, describe, expect, it } from 'vitest';
import { signOut } from '../test/session';
import {
  clearSession,
  getAccessToken,
  getIdToken,
  getRefreshToken,
  getSession,
  saveTokens,
} from './session';

const tokens = { access_token: 'access', refresh_token: 'refresh', id_token: 'id' };
const both = () => [sessionStorage, localStorage];
const storedEverywhere = (key: string) => both().map((store) => store.getItem(key));

describe('session tokens', () => {
  beforeEach(signOut);

  it('keeps the access and ID tokens in memory only, whatever "Remember me" says', () => {
    for (const remember of [true, false]) {
      saveTokens(tokens, remember);
      expect(getAccessToken()).toBe('access');
      expect(getIdToken()).toBe('id');
      expect(storedEverywhere('access_token')).toEqual([null, null]);
      expect(storedEverywhere('id_token')).toEqual([null, null]);
    }
  });

  it('stores the refresh token in localStorage with "Remember me"', () => {
    saveTokens({ ...tokens, tenantId: 't' }, true);
    expect(localStorage.getItem('refresh_token')).toBe('refresh');
    expect(localStorage.getItem('tenantId')).toBe('t');
    expect(sessionStorage.getItem('refresh_token')).toBeNull();
  });

  it('stores the refresh token in sessionStorage without "Remember me"', () => {
    saveTokens({ ...tokens, tenantId: 't' }, false);
    expect(sessionStorage.getItem('refresh_token')).toBe('refresh');
    expect(sessionStorage.getItem('tenantId')).toBe('t');
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('a refresh keeps the storage the refresh token is in, and the earlier ID token', () => {
    saveTokens(tokens, true);
    saveTokens({ access_token: 'access-2', refresh_token: 'refresh-2' });
    expect(localStorage.getItem('refresh_token')).toBe('refresh-2');
    expect(sessionStorage.getItem('refresh_token')).toBeNull();
    expect(getAccessToken()).toBe('access-2');
    expect(getIdToken()).toBe('id');
  });

  it('a new sign-in replaces the ID token, even with none', () => {
    saveTokens(tokens, false);
    saveTokens({ access_token: 'a', refresh_token: 'r' }, false);
    expect(getIdToken()).toBeNull();
  });

  it('removes the access and ID tokens that earlier versions stored', () => {
    for (const store of both()) {
      store.setItem('access_token', 'stale');
      store.setItem('id_token', 'stale');
    }
    saveTokens(tokens, false);
    expect(storedEverywhere('access_token')).toEqual([null, null]);
    expect(storedEverywhere('id_token')).toEqual([null, null]);

    localStorage.setItem('access_token', 'stale');
    clearSession('logout');
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('clearing forgets the memory tokens and the stored refresh token', () => {
    saveTokens(tokens, true);
    clearSession('expired');
    expect([getAccessToken(), getIdToken(), getRefreshToken(), getSession()]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('answers the same session object until the tokens change', () => {
    saveTokens(tokens, false);
    const first = getSession();
    expect(first?.refreshToken).toBe('refresh');
    expect(getSession()).toBe(first);
    saveTokens({ access_token: 'access-2', refresh_token: 'refresh-2' });
    expect(getSession()).not.toBe(first);
    expect(getSession()?.accessToken).toBe('access-2');
  });
});
