import type { DatabaseHandle } from './database';

/**
 * Notified by the triggers of migrations 0006, 0010 and 0011 on every committed write to cached
 * data, with the tenant whose data it was.
 */
export const DATA_CHANGED_CHANNEL = 'data_changed';

/**
 * Counts of the changes this process knows of, to the data that cached answers are made of
 * (the lists, and the API's view of a caller). A cached answer is good only while the count it
 * was made under is still the current one.
 *
 * Counted per tenant, so that one tenant's changes never empty another's cached answers: how
 * fast a tenant is answered must not tell whether another one has been busy. A change whose
 * tenant is unknown counts for every tenant; an answer made from every tenant's data (the
 * tenant list) is good only while no change at all has been counted.
 *
 * The counts go up when the database reports a committed change, from any process or path
 * (LISTEN, fed by row triggers naming the tenant), and when this process has answered a
 * request that may have written, before the answer leaves (http/write-tracking.ts): whoever
 * saw a write acknowledged never reads an older copy. Until the LISTEN is up, and after its
 * connection was lost, there is no current count, and nothing may be cached.
 */
export class DataVersion {
  /** Every change counted, of whichever tenant. */
  #total = 0;
  /** Changes of an unknown tenant: they count for every tenant. */
  #everyone = 0;
  readonly #byTenant = new Map<string, number>();
  readonly #realms = new Map<string, string>();
  #listening = false;

  /**
   * The current count for answers made from `tenantId`'s data, or from every tenant's when
   * undefined; undefined while changes could go unnoticed.
   */
  current(tenantId?: string): number | undefined {
    if (!this.#listening) return undefined;
    if (tenantId === undefined) return this.#total;
    return this.#everyone + (this.#byTenant.get(tenantId) ?? 0);
  }

  /** Counts a change of `tenantId`'s data; without a tenant, a change for every tenant. */
  bump(tenantId?: string): void {
    this.#total += 1;
    if (tenantId === undefined) this.#everyone += 1;
    else this.#byTenant.set(tenantId, (this.#byTenant.get(tenantId) ?? 0) + 1);
  }

  /**
   * Remembers which tenant a realm name belongs to, as seen on signed-in requests, so that a
   * write through a realm's public routes (sign-out) counts for that tenant alone. A realm no
   * signed-in request has named has no cached answers in this process.
   */
  learnRealm(realm: string, tenantId: string): void {
    const name = realm.toLowerCase();
    if (this.#realms.get(name) !== tenantId) this.#realms.set(name, tenantId);
  }

  tenantOfRealm(realm: string): string | undefined {
    return this.#realms.get(realm.toLowerCase());
  }

  /** Starts following the database's change notices; resolves to the function that stops. */
  async listen(database: DatabaseHandle): Promise<() => Promise<void>> {
    const stop = await database.listen(
      DATA_CHANGED_CHANNEL,
      // The notice names the tenant; an empty one (TRUNCATE) counts for every tenant.
      (tenantId) => this.bump(tenantId || undefined),
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
 * and never served after it.
 *
 * Each tenant has its own shelf of at most `maxEntries` answers, its oldest going first: one
 * tenant's many requests never push out another's answers (which it could time). Expired
 * answers are swept from every shelf once per `maxAgeMs`, so idle tenants hold nothing.
 */
export class AnswerCache<T> {
  readonly #shelves = new Map<string, Map<string, Entry<T>>>();
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;
  readonly #expiresAt: (value: T) => number;
  #sweptAt = Date.now();

  constructor(
    private readonly version: DataVersion,
    options: {
      maxAgeMs?: number;
      /** Per tenant (and once more for answers made from every tenant's data). */
      maxEntries?: number;
      /** When an answer must go at the latest (epoch ms), e.g. its token's expiry. */
      expiresAt?: (value: T) => number;
    } = {},
  ) {
    this.#maxAgeMs = options.maxAgeMs ?? 5_000;
    this.#maxEntries = options.maxEntries ?? 1_000;
    this.#expiresAt = options.expiresAt ?? (() => Infinity);
  }

  /**
   * The cached answer for `key`, or the one `make` gives (kept unless undefined). `tenantId`
   * is the tenant whose data the answer is made from; none: every tenant's.
   */
  get(key: string, make: () => Promise<T>, tenantId?: string): Promise<T>;
  get(key: string, make: () => Promise<T | undefined>, tenantId?: string): Promise<T | undefined>;
  async get(
    key: string,
    make: () => Promise<T | undefined>,
    tenantId?: string,
  ): Promise<T | undefined> {
    const count = this.version.current(tenantId);
    if (count === undefined) return make();
    const now = Date.now();
    const shelfName = tenantId ?? '';
    const hit = this.#shelves.get(shelfName)?.get(key);
    if (hit && hit.count === count && hit.until > now) return hit.value;
    const value = await make();
    if (value === undefined) return value;
    this.#sweep(now);
    let shelf = this.#shelves.get(shelfName);
    if (!shelf) this.#shelves.set(shelfName, (shelf = new Map()));
    shelf.delete(key);
    const until = Math.min(now + this.#maxAgeMs, this.#expiresAt(value));
    shelf.set(key, { count, until, value });
    if (shelf.size > this.#maxEntries) shelf.delete(shelf.keys().next().value!);
    return value;
  }

  get size(): number {
    let size = 0;
    for (const shelf of this.#shelves.values()) size += shelf.size;
    return size;
  }

  #sweep(now: number): void {
    if (now - this.#sweptAt < this.#maxAgeMs) return;
    this.#sweptAt = now;
    for (const [name, shelf] of this.#shelves) {
      for (const [key, entry] of shelf) if (entry.until <= now) shelf.delete(key);
      if (shelf.size === 0) this.#shelves.delete(name);
    }
  }
}
