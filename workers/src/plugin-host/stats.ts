/**
 * Health of one plugin as the /mod screen shows it: calls, failures, p50 latency over the recent calls, the
 * last success and the last error, and the auto-disable that follows `maxConsecutiveFailures` failures in a
 * row (a source whose site changed should stop being asked, visibly, until someone fixes or re-enables it).
 *
 * A failure caused by the host's own congestion (the plugin's request refused as busy because its pacing turn
 * would come too late, or a timeout spent mostly waiting for pacing turns) is not the plugin's fault: it counts
 * as a call and a failure, and becomes the last error, but it neither adds to nor resets the failures in a row
 * (so it cannot auto-disable a source that is merely asked more often than its pacing allows), and its latency
 * stays out of the p50 (a refusal in 0 ms says nothing about how fast the source answers).
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

  /** `congestion`: the host's pacing caused it (see above); counted, but not towards auto-disable. */
  failed(ms: number, code: string, message: string, options: { congestion?: boolean } = {}): void {
    if (options.congestion) this.#stats.calls++;
    else this.#record(ms);
    this.#stats.failures++;
    this.#stats.lastError = { code, message, at: new Date().toISOString() };
    if (options.congestion) return;
    this.#stats.consecutiveFailures++;
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
