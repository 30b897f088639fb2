/**
 * A small map whose entries expire `ttlMs` after they were set, for lookups that are read far more often
 * than they change and may be a moment stale. When it holds `maxEntries`, it starts over empty.
 */
export class ExpiringMap<K, V> {
  readonly #entries = new Map<K, { at: number; value: V }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(ttlMs: number, maxEntries: number) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  /** The value, while it is fresh. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at < this.#ttlMs) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * The fresh value for `key`, or else `load()`'s, remembered. A value that is a promise and rejects is
   * forgotten (unless something newer replaced it meanwhile), so the next call loads again.
   */
  getOrLoad(key: K, load: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    this.set(key, value);
    if (value instanceof Promise) {
      value.catch(() => {
        if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
      });
    }
    return value;
  }

  set(key: K, value: V): void {
    if (this.#entries.size >= this.#maxEntries && !this.#entries.has(key)) this.#entries.clear();
    this.#entries.set(key, { at: Date.now(), value });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
