import { decodeClaims } from './jwt';
import { storageKeys } from './storage-keys';

/**
 * The signed-in session. The access token and the ID token live in this module's memory only:
 * a script that can read storage cannot take a bearer token from there, and a new tab or a
 * reload gets a fresh pair by refreshing (restoreSession in api-client.ts). The refresh token
 * and the tenant id are stored: "Remember me" keeps them in localStorage (they survive a
 * browser restart); otherwise they live in sessionStorage and end with the browser.
 * The password is never stored: a stored password is a leaked one.
 */
export interface Session {
  accessToken: string;
  refreshToken: string | null;
  superAdmin: boolean;
  permissions: string[];
  tenantId: string | null;
}

export type SessionEndReason = 'logout' | 'expired';
type Listener = () => void;
type EndListener = (reason: SessionEndReason) => void;

const STORED_KEYS = [storageKeys.refreshToken, storageKeys.tenantId] as const;
// Earlier versions of the console stored these; they are removed wherever a browser still has them.
const FORMERLY_STORED_KEYS = [storageKeys.accessToken, storageKeys.idToken] as const;

const listeners = new Set<Listener>();
const endListeners = new Set<EndListener>();
let accessToken: string | null = null;
let idToken: string | null = null;
let cached: { token: string | null; session: Session | null } = { token: null, session: null };

function stores(): Storage[] {
  return [window.sessionStorage, window.localStorage];
}

function read(key: string): string | null {
  for (const store of stores()) {
    const value = store.getItem(key);
    if (value) return value;
  }
  return null;
}

function build(token: string): Session {
  const claims = decodeClaims(token);
  return {
    accessToken: token,
    refreshToken: read(storageKeys.refreshToken),
    superAdmin: claims?.realm_access?.roles?.includes('superAdmin') ?? false,
    permissions: claims?.permissions ?? [],
    tenantId: read(storageKeys.tenantId) ?? claims?.tenant_id ?? null,
  };
}

/** The current session; the same object until the tokens change (useSyncExternalStore needs that). */
export function getSession(): Session | null {
  if (accessToken !== cached.token) {
    cached = { token: accessToken, session: accessToken ? build(accessToken) : null };
  }
  return cached.session;
}

export function getAccessToken(): string | null {
  return accessToken;
}

/** Read from storage each time: another tab of a remembered session may have rotated it. */
export function getRefreshToken(): string | null {
  return read(storageKeys.refreshToken);
}

/** The ID token of a code-flow sign-in: the hint that ends the identity provider's session. */
export function getIdToken(): string | null {
  return idToken;
}

function emit() {
  for (const listener of listeners) listener();
}

function removeFormerlyStored() {
  for (const store of stores()) {
    for (const key of FORMERLY_STORED_KEYS) store.removeItem(key);
  }
}

export interface StoredTokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
  tenantId?: string;
}

/**
 * Keeps new tokens: the access and ID tokens in memory, the refresh token (and tenant id) in
 * storage. `remember` decides the storage; undefined keeps the current one (a refresh), which
 * is where the refresh token is. A refresh answer without an ID token keeps the earlier one;
 * a sign-in replaces it.
 */
export function saveTokens(tokens: StoredTokens, remember?: boolean) {
  const persistent = remember ?? window.localStorage.getItem(storageKeys.refreshToken) !== null;
  const [keep, drop] = persistent
    ? [window.localStorage, window.sessionStorage]
    : [window.sessionStorage, window.localStorage];
  accessToken = tokens.access_token;
  if (remember !== undefined || tokens.id_token) idToken = tokens.id_token ?? null;
  keep.setItem(storageKeys.refreshToken, tokens.refresh_token);
  if (tokens.tenantId) keep.setItem(storageKeys.tenantId, tokens.tenantId);
  for (const key of STORED_KEYS) drop.removeItem(key);
  removeFormerlyStored();
  emit();
}

/** Ends the session locally; listeners decide where to go (no navigation here: the HTTP layer does not know the screens). */
export function clearSession(reason: SessionEndReason) {
  accessToken = null;
  idToken = null;
  for (const store of stores()) {
    for (const key of STORED_KEYS) store.removeItem(key);
  }
  removeFormerlyStored();
  emit();
  for (const listener of endListeners) listener(reason);
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function onSessionEnd(listener: EndListener): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}
