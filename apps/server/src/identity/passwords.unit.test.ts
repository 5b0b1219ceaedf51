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
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    const before = ticks;
    const hashes = Promise.all(Array.from({ length: 8 }, () => hashPassword('Correct-horse-9!')));
    // While eight hashes run on the thread pool, the event loop keeps turning.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const during = ticks - before;
    await hashes;
    clearInterval(timer);
    expect(during).toBeGreaterThan(3);
  });
});
