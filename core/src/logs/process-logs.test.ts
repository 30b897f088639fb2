import { describe, expect, it } from 'vitest';
import { ProcessLogs } from './process-logs.ts';

describe('ProcessLogs', () => {
  it('keeps the newest lines per part, oldest first, warnings and errors also in their own ring', () => {
    const logs = new ProcessLogs({ maxLines: 3 });
    for (let i = 1; i <= 5; i++) logs.add('worker', i === 2 ? 50 : 30, `line ${i}`);
    for (let i = 1; i <= 100; i++) logs.add('nginx', 30, `GET /${i}`);
    expect(logs.read('worker')).toEqual({ log: ['line 3', 'line 4', 'line 5'], fail_log: ['line 2'] });
    expect(logs.read('nginx').log).toEqual(['GET /98', 'GET /99', 'GET /100']);
    expect(logs.read('beat')).toEqual({ log: [], fail_log: [] });
  });

  it('cuts a huge line and knows which parts this process runs', () => {
    const logs = new ProcessLogs({ maxLineChars: 10 });
    logs.add('gunicorn', 50, 'x'.repeat(50));
    expect(logs.read('gunicorn').log).toEqual(['xxxxxxxxxx…']);
    expect(logs.runs('gunicorn')).toBe(false);
    logs.serve('gunicorn');
    expect(logs.runs('gunicorn')).toBe(true);
  });
});
