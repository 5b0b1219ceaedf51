import { describe, expect, it } from 'vitest';
import { VersionedCache } from './service';
import { compareDecimal } from './queries';

describe('VersionedCache', () => {
  it('computes once per version, sharing a computation in flight', async () => {
    const cache = new VersionedCache<number>();
    let computed = 0;
    const compute = async () => ++computed;
    const [x, y] = await Promise.all([
      cache.get('t', 'v1', compute),
      cache.get('t', 'v1', compute),
    ]);
    expect([x, y, computed]).toEqual([1, 1, 1]);
    expect(await cache.get('t', 'v2', compute)).toBe(2);
    expect(await cache.get('other', 'v2', compute)).toBe(3);
  });

  it('forgets a failure and stale entries, and keeps at most maxEntries', async () => {
    const cache = new VersionedCache<string>(2, 0);
    await expect(cache.get('t', 'v', () => Promise.reject(new Error('down')))).rejects.toThrow();
    expect(await cache.get('t', 'v', async () => 'up')).toBe('up');
    // maxAgeMs 0: always recomputed.
    expect(await cache.get('t', 'v', async () => 'again')).toBe('again');

    const small = new VersionedCache<string>(2);
    await small.get('a', 'v', async () => 'a');
    await small.get('b', 'v', async () => 'b');
    await small.get('c', 'v', async () => 'c');
    expect(await small.get('a', 'v', async () => 'a2')).toBe('a2');
    expect(await small.get('c', 'v', async () => 'c2')).toBe('c');
  });
});

describe('compareDecimal', () => {
  it('orders decimal strings exactly, beyond float precision', () => {
    expect(compareDecimal('99999999999999.99', '99999999999999.98')).toBeGreaterThan(0);
    expect(compareDecimal('100000000000000.00', '99999999999999.99')).toBeGreaterThan(0);
    expect(compareDecimal('250.5', '250.50')).toBe(0);
    expect(compareDecimal('0.00', '0.01')).toBeLessThan(0);
    expect(compareDecimal('9', '10')).toBeLessThan(0);
  });
});
