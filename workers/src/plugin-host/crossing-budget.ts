/**
 * How many bytes of large capability results one sandbox's invocations hold at once. A result a host function
 * hands into the isolate (a track's cover from `tags.read`, a folder's cover, a file's bytes, a page's body) stays
 * alive inside the plugin's one isolate until its invocation ends; many invocations in flight at once (a batch
 * action's items) each holding a 4 MB cover filled a 64 MB isolate, and isolated-vm then aborted the whole
 * process (FatalRuntimeError) instead of failing one call. So a large result waits for its turn while other
 * invocations already hold `limit` bytes, and its bytes count until its own invocation ends.
 *
 * Never a deadlock: an invocation that already holds bytes is never made to wait (only one holding nothing
 * waits, and it waits for holders that do not wait), and one alone always goes, whatever its size (the
 * isolate's memory limit then decides, as before). Waiters go first come, first served.
 */

/** What one invocation holds; released (once) when it ends. */
export interface CrossingHold {
  held: number;
}

interface Waiter {
  hold: CrossingHold;
  size: number;
  admit: () => void;
}

export class CrossingBudget {
  readonly limit: number;
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes handed in and not yet released (for tests and stats). */
  get held(): number {
    return this.inFlight;
  }

  /**
   * Counts `size` bytes against `hold`, waiting first when the budget is taken by others. Resolves with the ms
   * waited; rejects when `signal` aborts while waiting (the invocation ended: the result has nowhere to go).
   */
  async take(hold: CrossingHold, size: number, signal: AbortSignal): Promise<number> {
    if (hold.held > 0 || this.fits(size)) {
      this.count(hold, size);
      return 0;
    }
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { hold, size, admit: () => { signal.removeEventListener('abort', onAbort); resolve(); } };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(new Error('the invocation has ended'));
        this.wake(); // a large waiter gone may let smaller ones behind it through
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
    return performance.now() - started;
  }

  /** The invocation ended: its bytes no longer count, and waiters that now fit go. */
  release(hold: CrossingHold): void {
    if (hold.held === 0) return;
    this.inFlight -= hold.held;
    hold.held = 0;
    this.wake();
  }

  private fits(size: number): boolean {
    return this.inFlight === 0 || this.inFlight + size <= this.limit;
  }

  private count(hold: CrossingHold, size: number): void {
    hold.held += size;
    this.inFlight += size;
  }

  private wake(): void {
    for (;;) {
      // A waiter whose invocation got bytes meanwhile (two calls of one invocation at once) goes at once: its
      // invocation may be waiting for both. Otherwise in order: the head that does not fit keeps its place.
      let at = this.waiters.findIndex((w) => w.hold.held > 0);
      if (at < 0 && this.waiters.length > 0 && this.fits(this.waiters[0]!.size)) at = 0;
      if (at < 0) return;
      const [waiter] = this.waiters.splice(at, 1);
      this.count(waiter!.hold, waiter!.size);
      waiter!.admit();
    }
  }
}
