/**
 * Paces a task's items on this worker: at most `rate` items start per second per task (the spec's scrape_rate,
 * default 1/s, and import_rate, 10/s). The task's store slots (Tasks.takeSlot) hold the rate across workers;
 * this gate keeps one worker from starting a burst of late slots at once after a stall. Each task has its own
 * schedule; a task not seen for a minute is forgotten.
 */
const FORGET_AFTER_MS = 60_000;

export class RateGate {
  readonly #next = new Map<string, number>();

  /** Resolves when the task's next start is due, and books the one after it. */
  async wait(taskId: string, rate: number): Promise<void> {
    const now = Date.now();
    this.#forget(now);
    const interval = 1000 / rate;
    const due = Math.max(now, this.#next.get(taskId) ?? 0);
    this.#next.set(taskId, due + interval);
    if (due > now) await new Promise((resolve) => setTimeout(resolve, due - now));
  }

  #forget(now: number): void {
    for (const [taskId, next] of this.#next) if (next < now - FORGET_AFTER_MS) this.#next.delete(taskId);
  }
}
