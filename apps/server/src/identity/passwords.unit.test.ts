import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('uses argon2id with OWASP parameters (m = 19 MiB, t = 2, p = 1)', async () => {
    const hash = await hashPassword('Correct-horse-9!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Correct-horse-9!')).toBe(true);
    expect(await verifyPassword(hash, 'correct-horse-9!')).toBe(false);
    expect(await verifyPassword(null, 'anything')).toBe(false);
  });

  it('does not block the event loop while hashing', async () => {
    let finished = false;
    const hashes = Promise.all(
      Array.from({ length: 8 }, () => hashPassword('Correct-horse-9!')),
    ).then(() => (finished = true));
    // The next turn of the event loop comes while the hashes still run on the thread pool. A
    // hash computed on the loop's own thread would have finished them all before that turn
    // (their promises settle first). A state, not a count of timer ticks within a time: a
    // busy machine delays timers, and counting them failed there.
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(false);
    await hashes;
    expect(finished).toBe(true);
  });
});
