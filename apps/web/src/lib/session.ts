import { decodeClaims } from './jwt';
import { storageKeys } from './storage-keys';

/**
 * The signed-in session. "Remember me" keeps the tokens in localStorage (they survive a
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

const SESSION_KEYS = [
  storageKeys.accessToken,
  storageKeys.refreshToken,
  storageKeys.idToken,
  storageKeys.tenantId,
] as const;

const listeners = new Set<Listener>();
const endListeners = new Set<EndListener>();
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

function build(accessToken: string): Session {
  const claims = decodeClaims(accessToken);
  return {
    accessToken,
    refreshToken: read(storageKeys.refreshToken),
    superAdmin: claims?.realm_access?.roles?.includes('superAdmin') ?? false,
    permissions: claims?.permissions ?? [],
    tenantId: read(storageKeys.tenantId) ?? claims?.tenant_id ?? null,
  };
}

/** The current session; the same object until the tokens change (useSyncExternalStore needs that). */
export function getSession(): Session | null {
  const token = read(storageKeys.accessToken);
  if (token !== cached.token) cached = { token, session: token ? build(token) : null };
  return cached.session;
}

export function getAccessToken(): string | null {
  return read(storageKeys.accessToken);
}

export function getRefreshToken(): string | null {
  return read(storageKeys.refreshToken);
}

/** The ID token of a code-flow sign-in: the hint that ends the identity provider's session. */
export function getIdToken(): string | null {
  return read(storageKeys.idToken);
}

function emit() {
  for (const listener of listeners) listener();
}

export interface StoredTokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
  tenantId?: string;
}

/** Stores new tokens; `remember` decides the storage, undefined keeps the current one (refresh). */
export function saveTokens(tokens: StoredTokens, remember?: boolean) {
  const persistent = remember ?? window.localStorage.getItem(storageKeys.refreshToken) !== null;
  const [keep, drop] = persistent
    ? [window.localStorage, window.sessionStorage]
    : [window.sessionStorage, window.localStorage];
  keep.setItem(storageKeys.accessToken, tokens.access_token);
  keep.setItem(storageKeys.refreshToken, tokens.refresh_token);
  if (tokens.tenantId) keep.setItem(storageKeys.tenantId, tokens.tenantId);
  if (tokens.id_token) keep.setItem(storageKeys.idToken, tokens.id_token);
  for (const key of SESSION_KEYS) drop.removeItem(key);
  emit();
}

/** Ends the session locally; listeners decide where to go (no navigation here: the HTTP layer does not know the screens). */
export function clearSession(reason: SessionEndReason) {
  for (const store of stores()) {
    for (const key of SESSION_KEYS) store.removeItem(key);
  }
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
