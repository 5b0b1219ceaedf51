import { getRefreshToken } from './session';

/**
 * Refresh tokens rotate, and the provider ends the whole grant when a used one is presented
 * again; the tabs of a remembered session share one in localStorage, so they refresh one at a
 * time, under a Web Lock. The lock alone is not enough: Chromium passes a localStorage write
 * to other tabs asynchronously, so the tab granted the lock next can still read the token the
 * previous holder has just spent (two tabs reloaded together met it). The holder marks
 * the spent token with a lock of its own for a while, and a tab that finds its token marked
 * waits for the successor to reach its storage. Without the API (jsdom, or a page that is
 * not a secure context) there is no lock and no marker.
 */
const REFRESH_LOCK = 'tc.token-refresh';
const SPENT_PREFIX = 'tc.token-spent:';
/** Far longer than storage takes to reach the other tabs. */
const SPENT_MARK_MS = 10_000;
const CATCH_UP_MS = 2_000;
const POLL_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A name for a spent token that does not spell the token out (FNV-1a, 32 bits). */
function spentName(token: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < token.length; index += 1) {
    hash = Math.imul(hash ^ token.charCodeAt(index), 0x01000193);
  }
  return `${SPENT_PREFIX}${(hash >>> 0).toString(16)}`;
}

/** Resolves once the marker is held; it is released on its own after SPENT_MARK_MS. */
function markSpent(token: string): Promise<void> {
  return new Promise((marked) => {
    void navigator.locks.request(spentName(token), { ifAvailable: true }, async () => {
      marked();
      await sleep(SPENT_MARK_MS);
    });
  });
}

/** The stored refresh token, once storage shows the successor of one another tab spent. */
async function unspentRefreshToken(): Promise<string | null> {
  const token = getRefreshToken();
  if (!token) return null;
  const { held = [] } = await navigator.locks.query();
  if (!held.some((lock) => lock.name === spentName(token))) return token;
  const deadline = Date.now() + CATCH_UP_MS;
  while (getRefreshToken() === token && Date.now() < deadline) await sleep(POLL_MS);
  return getRefreshToken();
}

/**
 * Runs `rotate` with the stored refresh token, one tab at a time; `rotate` presents it and
 * answers whether the provider exchanged it (and the successor has been stored).
 */
export async function withRefreshLock(
  rotate: (refreshToken: string | null) => Promise<boolean>,
): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('locks' in navigator)) {
    return rotate(getRefreshToken());
  }
  return navigator.locks.request(REFRESH_LOCK, async () => {
    // Read inside the lock: another tab may have rotated it while this one waited.
    const token = await unspentRefreshToken();
    const rotated = await rotate(token);
    if (rotated && token) await markSpent(token);
    return rotated;
  });
}
