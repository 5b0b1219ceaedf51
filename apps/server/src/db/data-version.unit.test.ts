import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './database';
import { AnswerCache, DataVersion } from './data-version';

/** A database whose change notices and lost connection the test sends itself. */
function fakeDatabase() {
  const handle = {
    notify: () => {},
    lose: () => {},
    listen: async (_channel: string, onPayload: (payload: string) => void, onLost?: () => void) => {
      handle.notify = () => onPayload('');
      handle.lose = () => onLost?.();
      return async () => {};
    },
  };
  return handle;
}

/** An answer maker that counts its calls: 1, 2, 3, … tell a made answer from a kept one. */
function counter() {
  let made = 0;
  return async () => ++made;
}

async function listening() {
  const database = fakeDatabase();
  const version = new DataVersion();
  await version.listen(database as unknown as DatabaseHandle);
  return { database, version };
}

describe('AnswerCache', () => {
  it('keeps an answer until the data changes', async () => {
    const { database, version } = await listening();
    const cache = new AnswerCache<number>(version);
    const make = counter();
    expect(await cache.get('k', make)).toBe(1);
    expect(await cache.get('k', make)).toBe(1);
    database.notify();
    expect(await cache.get('k', make)).toBe(2);
    version.bump();
    expect(await cache.get('k', make)).toBe(3);
    expect(await cache.get('other', make)).toBe(4);
  });

  it("keeps a tenant's answers through another tenant's changes", async () => {
    const { database, version } = await listening();
    const cache = new AnswerCache<number>(version);
    const make = counter();
    expect(await cache.get('a', make, 'tenant-a')).toBe(1);
    expect(await cache.get('all', make)).toBe(2);
    version.bump('tenant-b');
    expect(await cache.get('a', make, 'tenant-a')).toBe(1);
    // An answer made from every tenant's data goes with any change.
    expect(await cache.get('all', make)).toBe(3);
    version.bump('tenant-a');
    expect(await cache.get('a', make, 'tenant-a')).toBe(4);
    // A change of an unknown tenant counts for every tenant.
    database.notify();
    expect(await cache.get('a', make, 'tenant-a')).toBe(5);
  });

  it("never lets one tenant's answers push out another's", async () => {
    const { version } = await listening();
    const cache = new AnswerCache<string>(version, { maxEntries: 2 });
    await cache.get('a1', async () => 'kept', 'tenant-a');
    for (let i = 0; i < 10; i++) await cache.get(`b${i}`, async () => 'b', 'tenant-b');
    expect(await cache.get('a1', async () => 'made again', 'tenant-a')).toBe('kept');
    expect(cache.size).toBe(3);
  });

  it('never serves an answer that raced a change after that change', async () => {
    const { version } = await listening();
    const cache = new AnswerCache<string>(version);
    // The answer is made from data read before the change commits ...
    const raced = cache.get('k', async () => {
      version.bump();
      return 'made before the change';
    });
    expect(await raced).toBe('made before the change');
    // ... so it was filed under the old count, and the next caller gets a fresh one.
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('caches nothing until it listens, and nothing after the connection is lost', async () => {
    const version = new DataVersion();
    const cache = new AnswerCache<number>(version);
    const make = counter();
    expect(await cache.get('k', make)).toBe(1);
    expect(await cache.get('k', make)).toBe(2);
    const database = fakeDatabase();
    await version.listen(database as unknown as DatabaseHandle);
    expect(await cache.get('k', make)).toBe(3);
    expect(await cache.get('k', make)).toBe(3);
    database.lose();
    expect(await cache.get('k', make)).toBe(4);
    expect(await cache.get('k', make)).toBe(5);
  });

  it('lets answers go after their age or their own expiry, and the oldest beyond the limit', async () => {
    const { version } = await listening();
    const aged = new AnswerCache<number>(version, { maxAgeMs: 0 });
    const make = counter();
    await aged.get('k', make);
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(await aged.get('k', make)).toBe(2);

    const expiring = new AnswerCache<{ until: number }>(version, { expiresAt: (v) => v.until });
    const expired = { until: Date.now() - 1 };
    await expiring.get('k', async () => expired);
    expect(await expiring.get('k', async () => ({ until: Infinity }))).not.toBe(expired);

    const small = new AnswerCache<string>(version, { maxEntries: 2 });
    await small.get('a', async () => 'a1');
    await small.get('b', async () => 'b1');
    await small.get('c', async () => 'c1');
    expect(small.size).toBe(2);
    expect(await small.get('a', async () => 'a2')).toBe('a2');
    expect(await small.get('c', async () => 'c2')).toBe('c1');
  });

  it('does not keep an undefined answer', async () => {
    const { version } = await listening();
    const cache = new AnswerCache<string>(version);
    expect(await cache.get('k', async () => undefined)).toBeUndefined();
    expect(await cache.get('k', async () => 'now')).toBe('now');
  });
});
