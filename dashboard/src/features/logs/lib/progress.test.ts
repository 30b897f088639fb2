import { describe, expect, it } from 'vitest';
import { addSample, formatEta, progressOf, type Sample } from './progress.ts';

describe('live progress', () => {
  it('measures items/s between samples and the time left', () => {
    let s: Sample[] = [];
    s = addSample(s, { at: 0, done: 0 });
    s = addSample(s, { at: 2000, done: 10 });
    const p = progressOf({ taskId: 't', status: 'running', total: 30, done: 10 }, s);
    expect(p.rate).toBe(5);
    expect(p.etaSeconds).toBe(4);
  });

  it('has no rate from one sample and no time left once finished', () => {
    const one = progressOf({ taskId: 't', status: 'running', total: 3, done: 1 }, [{ at: 0, done: 1 }]);
    expect(one.rate).toBeNull();
    expect(one.etaSeconds).toBeNull();
    const done = progressOf({ taskId: 't', status: 'success', total: 3, done: 3 }, [{ at: 0, done: 0 }, { at: 1000, done: 3 }]);
    expect(done.etaSeconds).toBeNull();
  });

  it('forgets samples outside the window', () => {
    let s: Sample[] = [];
    for (let i = 0; i <= 40; i++) s = addSample(s, { at: i * 1000, done: i }, 10_000);
    expect(s[0].at).toBeGreaterThanOrEqual(30_000);
  });

  it('prefers the server rate when it sends one', () => {
    expect(progressOf({ taskId: 't', status: 'running', total: 10, done: 5, items_per_sec: 2.5, eta_sec: 2 }, []).rate).toBe(2.5);
  });

  it('formats the time left', () => {
    expect(formatEta(44.2)).toBe('45 s');
    expect(formatEta(200)).toBe('3:20');
    expect(formatEta(null)).toBe('-');
  });
});
