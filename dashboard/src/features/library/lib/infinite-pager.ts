/**
 * The paging rules of the library's infinite lists (spec §4 "Lists", §9): batches of `pageSize` from
 * offset 0; a batch shorter than asked (an empty one included) is the last, so no further call is made.
 * One pager per list generation: `reload()` in the hook makes a new one, and answers of an older
 * generation are dropped by the hook, so a slow batch cannot land in a list that was replaced meanwhile.
 */
export interface PagerState<T> {
  items: T[];
  loading: boolean;
  done: boolean;
  error: unknown;
}

export type PageLoader<T> = (offset: number, size: number) => Promise<T[]>;

export class InfinitePager<T> {
  private state: PagerState<T> = { items: [], loading: false, done: false, error: null };
  private inFlight: Promise<void> | null = null;

  private readonly load: PageLoader<T>;
  private readonly pageSize: number;
  private readonly onChange: (state: PagerState<T>) => void;

  constructor(load: PageLoader<T>, pageSize: number, onChange: (state: PagerState<T>) => void = () => {}) {
    this.load = load;
    this.pageSize = pageSize;
    this.onChange = onChange;
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive whole number, got ${pageSize}`);
  }

  get snapshot(): PagerState<T> {
    return this.state;
  }

  /**
   * Loads the next batch unless one is loading, the list is done, or the last batch failed (a failed list
   * waits for reload() instead of retrying on every scroll event).
   */
  more(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.state.done || this.state.error) return Promise.resolve();
    this.set({ loading: true });
    this.inFlight = this.load(this.state.items.length, this.pageSize).then(
      (batch) => {
        this.inFlight = null;
        this.set({ items: batch.length ? [...this.state.items, ...batch] : this.state.items, loading: false, done: batch.length < this.pageSize });
      },
      (error: unknown) => {
        this.inFlight = null;
        this.set({ loading: false, error });
      },
    );
    return this.inFlight;
  }

  private set(patch: Partial<PagerState<T>>): void {
    this.state = { ...this.state, ...patch };
    this.onChange(this.state);
  }
}
