/**
 * A counting semaphore whose waiters give up after a while: transcodes beyond the cap queue briefly,
 * then fail with a clear "busy" error instead of piling up ffmpeg processes.
 */
import { unavailable } from '../errors/errors.ts';

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | null;
}

export class Limiter {
  readonly max: number;
  private running = 0;
  private readonly waiters: Waiter[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('Limiter needs at least one slot.');
    this.max = max;
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** A slot, waiting at most `timeoutMs` (0: fail at once when full). Call the returned function once to free it. */
  acquire(timeoutMs: number): Promise<() => void> {
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (timeoutMs <= 0) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const w: Waiter = { resolve, reject, timer: null };
      w.timer = setTimeout(() => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(this.busy());
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiters.shift();
      if (next) {
        if (next.timer) clearTimeout(next.timer);
        next.resolve(this.releaser());
      } else this.running--;
    };
  }

  private busy(): Error {
    return unavailable('TAGSONIC_ERR_TRANSCODE_BUSY', `The server is busy: all ${this.max} transcoders are in use. Try again in a moment, or stream the original format.`);
  }
}
