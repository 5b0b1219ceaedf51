/**
 * The last computed value per tenant, reused while the tenant's version (dashboardVersion) is
 * unchanged. Every console refetches the dashboard on each change event, so without it one
 * change would fan out into as many full recomputations as there are open consoles; with it
 * they share one (concurrent misses of the same version wait for the same promise).
 * Each process keeps its own: the version is read from the database, so processes agree.
 */
export class VersionedCache<T> {
  readonly #entries = new Map<string, { version: string; at: number; value: Promise<T> }>();

  constructor(
    private readonly maxEntries = 1000,
    /** A bound on staleness should some write not be audited; audited writes are seen at once. */
    private readonly maxAgeMs = 60_000,
  ) {}

  get(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit && hit.version === version && Date.now() - hit.at < this.maxAgeMs) return hit.value;
    const entry = { version, at: Date.now(), value: compute() };
    // Re-inserted last, so the first key is the least recently computed one.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    // A failure is not remembered: the next request computes again.
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return entry.value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
