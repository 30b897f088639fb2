import { describe, expect, it } from 'vitest';
import { PluginHealth } from './stats.ts';

describe('plugin health', () => {
  it('five failures in a row auto-disable the plugin', () => {
    const health = new PluginHealth(5);
    for (let i = 0; i < 5; i++) health.failed(10, 'TAGSONIC_ERR_PLUGIN_UPSTREAM', 'down');
    expect(health.snapshot()).toMatchObject({ calls: 5, failures: 5, consecutiveFailures: 5, disabled: true, disabledReason: 'auto' });
  });

  it("the host's congestion (busy, waiting for pacing) is counted and shown, but neither adds to nor resets the failures in a row, nor the p50", () => {
    const health = new PluginHealth(5);
    health.succeeded(400);
    health.failed(10, 'TAGSONIC_ERR_PLUGIN_UPSTREAM', 'down');
    for (let i = 0; i < 20; i++) health.failed(1, 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY', 'iTunes is rate-limited', { congestion: true });
    expect(health.snapshot()).toMatchObject({
      calls: 22, failures: 21, consecutiveFailures: 1, disabled: false, disabledReason: null, p50Ms: 10,
      lastError: { code: 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY', message: 'iTunes is rate-limited' },
    });
    for (let i = 0; i < 4; i++) health.failed(10, 'TAGSONIC_ERR_PLUGIN_UPSTREAM', 'down');
    expect(health.snapshot()).toMatchObject({ consecutiveFailures: 5, disabled: true, disabledReason: 'auto' });
  });
});
