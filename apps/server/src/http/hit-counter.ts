import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { rateLimits } from '../db/schema/rate-limits';

/**
 * Counts hits per key in fixed windows, shared by every server process: in PostgreSQL (or
 * the embedded database) by default, in Redis when REDIS_URL is set. Each hit is one atomic
 * statement, so parallel requests on several processes never count past a limit together.
 */
export interface HitCounter {
  /** Adds one hit; answers the hits in the current window and the time until it ends. */
  hit(key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }>;
  close(): Promise<void>;
}

// Keys carry e-mail addresses and client addresses: only their digest is stored.
const digest = (key: string) => createHash('sha256').update(key).digest('base64url');

export function databaseHitCounter(db: Database): HitCounter {
  // Expired windows are deleted now and then; any process may do it, twice does no harm.
  const sweep = setInterval(() => {
    db.delete(rateLimits)
      .where(lt(rateLimits.resetAt, sql`now()`))
      .catch(() => undefined);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, windowMs) {
      const result = await db.execute(sql`
        insert into rate_limits as r (key, hits, reset_at)
        values (${digest(key)}, 1, now() + ${windowMs} * interval '1 millisecond')
        on conflict (key) do update set
          hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
          reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
        returning hits, greatest(0, extract(epoch from reset_at - now()) * 1000)::float8 as "ttlMs",
          set_config('synchronous_commit', 'off', true)`);
      const [row] = (result as unknown as { rows: Array<{ hits: number; ttlMs: number }> }).rows;
      return { hits: Number(row!.hits), ttlMs: Math.ceil(Number(row!.ttlMs)) };
    },
    close: async () => clearInterval(sweep),
  };
}

// INCR and the expiry in one script, so a window always ends (the same logic as
// @fastify/rate-limit's own Redis store).
const REDIS_HIT = `
  local hits = redis.call('INCR', KEYS[1])
  if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
  return { hits, ttl }`;

export function redisHitCounter(url: string, keyPrefix: string): HitCounter {
  // Fail fast rather than queue: a limit that cannot be counted answers an error at once.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  return {
    async hit(key, windowMs) {
      const [hits, ttlMs] = (await redis.eval(
        REDIS_HIT,
        1,
        `${keyPrefix}rate:${digest(key)}`,
        String(windowMs),
      )) as [number, number];
      return { hits, ttlMs };
    },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** A limit of `max` hits per window and key, e.g. mails per address or sign-ins per realm. */
export class SharedLimit {
  constructor(
    private readonly counter: HitCounter,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit; answers the seconds to wait when the limit is exceeded. */
  async take(key: string): Promise<{ retryAfterSeconds: number } | undefined> {
    const { hits, ttlMs } = await this.counter.hit(`${this.name}\n${key}`, this.windowMs);
    if (hits <= this.max) return undefined;
    return { retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }
}

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit that counts through the shared counter, one key space per
 * route (as the plugin's own stores do), so its per-route limits hold across processes.
 */
export function rateLimitStore(counter: HitCounter) {
  return class SharedRateLimitStore {
    constructor(
      private readonly options: { timeWindow?: unknown },
      private readonly prefix = 'route',
    ) {}

    // The plugin passes the route's window as a third argument its types do not declare.
    incr(key: string, callback: IncrCallback, timeWindow?: number) {
      const windowMs = timeWindow ?? Number(this.options.timeWindow ?? 60_000);
      counter.hit(`${this.prefix}\n${key}`, windowMs).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    // At run time the plugin hands the merged route options with the route under
    // `routeInfo`; its types describe the route itself. Either way the route names the keys.
    child(options: object) {
      const { routeInfo, method, url } = options as {
        routeInfo?: { method?: unknown; url?: string };
        method?: unknown;
        url?: string;
      };
      const route = `${String(routeInfo?.method ?? method)} ${routeInfo?.url ?? url}`;
      return new SharedRateLimitStore(options as { timeWindow?: unknown }, route);
    }
  };
}
