import { describe, expect, it } from 'vitest';
import { batchedReads, sharedReads } from './batched-reads';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedReads', () => {
  it('reads the distinct keys of one turn together, after the turn', async () => {
    const loads: string[][] = [];
    const read = batchedReads(async (keys: string[]) => {
      loads.push(keys);
      return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, key.length]));
    });
    const first = [read('a'), read('bb'), read('a'), read('missing')];
    // Nothing is read while the turn still gathers keys.
    expect(loads).toEqual([]);
    expect(await Promise.all(first)).toEqual([1, 2, 1, undefined]);
    expect(loads).toEqual([['a', 'bb', 'missing']]);
    // A later turn reads again: nothing is kept.
    expect(await read('a')).toBe(1);
    expect(loads).toEqual([['a', 'bb', 'missing'], ['a']]);
  });

  it('fails every key of a batch whose reading failed, and reads afresh next turn', async () => {
    let fail = true;
    const read = batchedReads(async (keys: number[]) => {
      if (fail) throw new Error('down');
      return new Map(keys.map((key) => [key, key * 2]));
    });
    const failed = await Promise.allSettled([read(1), read(2)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read(2)).toBe(4);
  });

  it('starts a key asked for while a reading runs in a reading of its own', async () => {
    const loads: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = batchedReads(async (keys: number[]) => {
      loads.push(keys);
      if (loads.length === 1) await gate;
      return new Map(keys.map((key) => [key, loads.length]));
    });
    const early = read(7);
    await nextTurn();
    await nextTurn();
    // The first reading has started; the same key now must not join it.
    const late = read(7);
    await nextTurn();
    expect(loads).toEqual([[7], [7]]);
    release();
    expect(await Promise.all([early, late])).toEqual([2, 2]);
  });
});

describe('sharedReads', () => {
  it('looks each distinct key of a turn up once, and keeps one failure to its key', async () => {
    const asked: string[] = [];
    const lookUp = sharedReads(async (key: string) => {
      asked.push(key);
      if (key === 'bad') throw new Error('bad key');
      return key.toUpperCase();
    });
    const results = await Promise.allSettled([lookUp('x'), lookUp('bad'), lookUp('x')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(asked).toEqual(['x', 'bad']);
    expect(await lookUp('x')).toBe('X');
    expect(asked).toEqual(['x', 'bad', 'x']);
  });
});
