/**
 * How a plugin is doing, from the health the workers report: the list and the details show the same verdict,
 * so "this source broke" reads the same everywhere.
 */
import type { PluginHealth, PluginItem } from '../api/types.ts';

/**
 * - `auto-disabled`: the workers switched it off after repeated failures in a row;
 * - `failing`: its latest call failed (the last error is newer than the last success);
 * - `ok`: its latest call succeeded;
 * - `unused`: no call yet.
 */
export type HealthState = 'auto-disabled' | 'failing' | 'ok' | 'unused';

export function healthState(item: Pick<PluginItem, 'enabled' | 'disabled_reason' | 'health'>): HealthState {
  if (!item.enabled && item.disabled_reason === 'auto') return 'auto-disabled';
  const { last_error: error, last_success_at: success } = item.health;
  if (error && (!success || Date.parse(error.at) >= Date.parse(success))) return 'failing';
  if (success || item.health.calls > 0) return 'ok';
  return 'unused';
}

/** Share of failed calls, rounded to a whole percent; null before the first call. */
export function failureRate(health: PluginHealth): number | null {
  return health.calls > 0 ? Math.round((health.failures / health.calls) * 100) : null;
}

/** `p50 12 ms`, `p50 1.4 s`; '—' before the first call. */
export function formatLatency(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms)} ms`;
  return `${Math.round(ms / 100) / 10} s`;
}
