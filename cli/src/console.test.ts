import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsole, logFormat, textLine } from './console.ts';

function capture(isTTY = false) {
  const lines: string[] = [];
  const out = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    }),
    { isTTY },
  );
  return { out, lines };
}

describe('console', () => {
  it('picks JSON when stdout is not a terminal, text on one, and obeys TAGSONIC_LOG_FORMAT', () => {
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({}, true)).toBe('text');
    expect(logFormat({ TAGSONIC_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ TAGSONIC_LOG_FORMAT: ' Text ' }, false)).toBe('text');
    expect(() => logFormat({ TAGSONIC_LOG_FORMAT: 'pretty' }, true)).toThrow(/json or text/);
  });

  it('text form: one line per event with time, level, message and scalar fields; objects stay for JSON', () => {
    const { out, lines } = capture();
    const log = createConsole({ level: 'debug', format: 'text', out });
    log.info({ scan: { files: 3 }, rev: 7 }, 'library scan finished');
    log.debug('GET /rest/ping.view 200 0.4 ms');
    log.trace('not shown at debug');
    log.warn({ err: new Error('disk gone') }, 'library watcher');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO  library scan finished  rev=7$/);
    expect(lines[1]).toMatch(/ DEBUG GET \/rest\/ping\.view 200 0\.4 ms$/);
    expect(lines[2]).toMatch(/ WARN  library watcher: disk gone$/);
  });

  it('JSON form: pino records with the structured fields', () => {
    const { out, lines } = capture();
    const log = createConsole({ level: 'info', format: 'json', out });
    log.info({ scan: { files: 3 } }, 'library scan finished');
    const record = JSON.parse(lines[0]);
    expect(record).toMatchObject({ level: 30, msg: 'library scan finished', scan: { files: 3 } });
    expect(new Date(record.time).getTime()).toBeGreaterThan(0);
  });

  it('an error with its stack indented below, and an unknown level refused', () => {
    const e = new Error('boom');
    expect(textLine({ level: 50, time: new Date().toISOString(), msg: 'request failed', err: { message: e.message, stack: e.stack } })).toMatch(
      /ERROR request failed\n {4}Error: boom\n {4}\s*at /,
    );
    expect(() => createConsole({ level: 'verbose', format: 'text' })).toThrow(/TAGSONIC_LOG_LEVEL/);
  });
});
