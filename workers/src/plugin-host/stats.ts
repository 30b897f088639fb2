/**
 * Health of one plugin as the /mod screen shows it: calls, failures, p50 latency over the recent calls, the
 * last success and the last error, and the auto-disable that follows `maxConsecutiveFailures` failures in a
 * row (a source whose site changed should stop being asked, visibly, until someone fixes or re-enables it).
 */

export interface PluginStats {
  calls: number;
  failures: number;
  consecutiveFailures: number;
  /** Median wall-clock latency in ms of the last {@link LATENCY_WINDOW} calls; null before the first. */
  p50Ms: number | null;
  lastSuccessAt: string | null;
  lastError: { code: string; message: string; at: string } | null;
  disabled: boolean;
  /** Why it is disabled: `auto` after consecutive failures, `manual` by `disable()`. */
  disabledReason: 'auto' | 'manual' | null;
}

export const LATENCY_WINDOW = 100;

export class PluginHealth {
  readonly #maxConsecutiveFailures: number;
  readonly #latencies: number[] = [];
  #next = 0;
  #stats: PluginStats = {
    calls: 0,
    failures: 0,
    consecutiveFailures: 0,
    p50Ms: null,
    lastSuccessAt: null,
    lastError: null,
    disabled: false,
    disabledReason: null,
  };

  constructor(maxConsecutiveFailures: number) {
    this.#maxConsecutiveFailures = maxConsecutiveFailures;
  }

  get disabled(): boolean {
    return this.#stats.disabled;
  }

  succeeded(ms: number): void {
    this.#record(ms);
    this.#stats.consecutiveFailures = 0;
    this.#stats.lastSuccessAt = new Date().toISOString();
  }

  failed(ms: number, code: string, message: string): void {
    this.#record(ms);
    this.#stats.failures++;
    this.#stats.consecutiveFailures++;
    this.#stats.lastError = { code, message, at: new Date().toISOString() };
    if (this.#stats.consecutiveFailures >= this.#maxConsecutiveFailures && !this.#stats.disabled) {
      this.#stats.disabled = true;
      this.#stats.disabledReason = 'auto';
    }
  }

  setDisabled(disabled: boolean): void {
    this.#stats.disabled = disabled;
    this.#stats.disabledReason = disabled ? 'manual' : null;
    if (!disabled) this.#stats.consecutiveFailures = 0;
  }

  snapshot(): PluginStats {
    const sorted = this.#latencies.toSorted((a, b) => a - b);
    const p50Ms = sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)];
    return { ...this.#stats, lastError: this.#stats.lastError && { ...this.#stats.lastError }, p50Ms };
  }

  #record(ms: number): void {
    this.#stats.calls++;
    this.#latencies[this.#next] = ms;
    this.#next = (this.#next + 1) % LATENCY_WINDOW;
  }
}
