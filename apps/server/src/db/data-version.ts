import type { DatabaseHandle } from './database';

/** Notified by migration 0006's triggers on every committed write to cached data. */
export const DATA_CHANGED_CHANNEL = 'data_changed';

/**
 * A count of the changes this process knows of, to the data that cached answers are made of
 * (the lists, and the API's view of a caller). A cached answer is good only while the count it
 * was made under is still the current one.
 *
 * It goes up when the database reports a committed change, from any process or path (LISTEN,
 * fed by statement triggers), and when this process has answered a request that may have
 * written, before the answer leaves (http/write-tracking.ts): whoever saw a write acknowledged
 * never reads an older copy. Until the LISTEN is up, and after its connection was lost, there
 * is no current count, and nothing may be cached.
 */
export class DataVersion {
  #count = 0;
  #listening = false;

  /** The current count, or undefined while changes could go unnoticed. */
  get current(): number | undefined {
    return this.#listening ? this.#count : undefined;
  }

  bump(): void {
    this.#count += 1;
  }

  /** Starts following the database's change notices; resolves to the function that stops. */
  async listen(database: DatabaseHandle): Promise<() => Promise<void>> {
    const stop = await database.listen(
      DATA_CHANGED_CHANNEL,
      () => this.bump(),
      () => {
        this.#listening = false;
      },
    );
    this.#listening = true;
    return async () => {
      this.#listening = false;
      await stop();
    };
  }
}

interface Entry<T> {
  count: number;
  until: number;
  value: T;
}

/**
 * Answers kept while the data they were made from is unchanged (DataVersion), and at most
 * `maxAgeMs`: a bound on staleness should a change notice ever be missed. The count is read
 * before the answer is made, so an answer that raced a write is filed under the older count
 * and never served after it. Oldest entries go first beyond `maxEntries`.
 */
export class AnswerCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;
  readonly #expiresAt: (value: T) => number;

  constructor(
    private readonly version: DataVersion,
    options: {
      maxAgeMs?: number;
      maxEntries?: number;
      /** When an answer must go at the latest (epoch ms), e.g. its token's expiry. */
      expiresAt?: (value: T) => number;
    } = {},
  ) {
    this.#maxAgeMs = options.maxAgeMs ?? 5_000;
    this.#maxEntries = options.maxEntries ?? 1_000;
    this.#expiresAt = options.expiresAt ?? (() => Infinity);
  }

  /** The cached answer for `key`, or the one `make` gives (kept unless undefined). */
  get(key: string, make: () => Promise<T>): Promise<T>;
  get(key: string, make: () => Promise<T | undefined>): Promise<T | undefined>;
  async get(key: string, make: () => Promise<T | undefined>): Promise<T | undefined> {
    const count = this.version.current;
    if (count === undefined) return make();
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && hit.count === count && hit.until > now) return hit.value;
    const value = await make();
    if (value === undefined) return value;
    this.#entries.delete(key);
    const until = Math.min(now + this.#maxAgeMs, this.#expiresAt(value));
    this.#entries.set(key, { count, until, value });
    if (this.#entries.size > this.#maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
