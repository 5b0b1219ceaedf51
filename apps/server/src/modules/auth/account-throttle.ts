import { AppError } from '../../http/problem';

/**
 * Counts requests per key in a sliding window, in memory. It counts requests, not users: an
 * unknown e-mail is throttled exactly like a known one, so a 429 reveals nothing (OWASP
 * Forgot Password Cheat Sheet). Per process: several processes each allow `max`.
 */
export class RequestThrottle {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Records one request; throws a 429 problem (Retry-After set by the caller) when over. */
  take(key: string, now = Date.now()): { retryAfterSeconds: number } | undefined {
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length >= this.max) {
      this.hits.set(key, recent);
      return { retryAfterSeconds: Math.ceil((recent[0]! + this.windowMs - now) / 1000) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.sweep(now);
    return undefined;
  }

  private sweep(now: number): void {
    for (const [key, times] of this.hits) {
      if (times.every((t) => t <= now - this.windowMs)) this.hits.delete(key);
    }
  }
}

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(
    429,
    `Too many requests for this address. Try again in ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} minute(s).`,
  );
