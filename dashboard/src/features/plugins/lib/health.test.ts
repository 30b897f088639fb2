import { describe, expect, it } from 'vitest';
import type { PluginHealth } from '../api/types.ts';
import { failureRate, formatLatency, healthState } from './health.ts';

const health = (patch: Partial<PluginHealth>): PluginHealth => ({ calls: 0, failures: 0, p50_ms: null, last_success_at: null, last_error: null, ...patch });
const error = (at: string) => ({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: results', at });

describe('plugin health', () => {
  it('calls a plugin failing when its latest call failed, fine when a success came after', () => {
    expect(healthState({ enabled: true, disabled_reason: null, health: health({ calls: 3, failures: 1, last_success_at: '2026-11-25T10:00:00Z', last_error: error('2026-11-25T11:00:00Z') }) })).toBe('failing');
    expect(healthState({ enabled: true, disabled_reason: null, health: health({ calls: 1, failures: 1, last_error: error('2026-11-25T11:00:00Z') }) })).toBe('failing');
    expect(healthState({ enabled: true, disabled_reason: null, health: health({ calls: 3, failures: 1, last_success_at: '2026-11-25T12:00:00Z', last_error: error('2026-11-25T11:00:00Z') }) })).toBe('ok');
  });

  it('puts an automatic stop before everything else, and says unused before the first call', () => {
    expect(healthState({ enabled: false, disabled_reason: 'auto', health: health({ calls: 5, failures: 5, last_error: error('2026-11-25T11:00:00Z') }) })).toBe('auto-disabled');
    expect(healthState({ enabled: false, disabled_reason: 'admin', health: health({}) })).toBe('unused');
    expect(healthState({ enabled: true, disabled_reason: null, health: health({}) })).toBe('unused');
  });

  it('rounds the failure rate and the latency', () => {
    expect(failureRate(health({}))).toBeNull();
    expect(failureRate(health({ calls: 3, failures: 1 }))).toBe(33);
    expect(formatLatency(null)).toBe('—');
    expect(formatLatency(0.512)).toBe('0.5 ms');
    expect(formatLatency(123.4)).toBe('123 ms');
    expect(formatLatency(1440)).toBe('1.4 s');
  });
});
