import { describe, expect, it } from 'vitest';
import { activeLineIndex, fromPlain, fromStructured } from './lyrics.ts';

describe('lyrics for /playing', () => {
  it('reads OpenSubsonic structured lyrics, synced ones first, the offset applied', () => {
    const lyrics = fromStructured([
      { synced: false, line: [{ value: 'plain' }] },
      { synced: true, offset: 500, line: [{ start: 1000, value: 'one' }, { start: 4000, value: 'two' }] },
    ]);
    expect(lyrics).toEqual({ synced: true, lines: [{ start: 500, value: 'one' }, { start: 3500, value: 'two' }] });
    expect(fromStructured([])).toBeNull();
    expect(fromStructured([{ synced: true, line: [] }])).toBeNull();
    expect(fromStructured([{ synced: false, line: [{ value: 'a' }] }])).toEqual({ synced: false, lines: [{ start: null, value: 'a' }] });
  });

  it('reads LRC stamps from plain lyrics, a line with two stamps twice, tag lines left out', () => {
    const lyrics = fromPlain('[ti:Song]\n[ar:Ann]\n[00:01.50]one\n[00:03.00][00:09.25]chorus\n[00:05:20]two');
    expect(lyrics).toEqual({
      synced: true,
      lines: [
        { start: 1500, value: 'one' },
        { start: 3000, value: 'chorus' },
        { start: 5200, value: 'two' },
        { start: 9250, value: 'chorus' },
      ],
    });
    expect(fromPlain('just\nwords')).toEqual({ synced: false, lines: [{ start: null, value: 'just' }, { start: null, value: 'words' }] });
    expect(fromPlain('  ')).toBeNull();
  });

  it('highlights the last line started', () => {
    const lyrics = fromPlain('[00:01.00]a\n[00:02.00]b\n[00:04.00]c');
    expect(activeLineIndex(lyrics, 500)).toBe(-1);
    expect(activeLineIndex(lyrics, 1000)).toBe(0);
    expect(activeLineIndex(lyrics, 3999)).toBe(1);
    expect(activeLineIndex(lyrics, 60_000)).toBe(2);
    expect(activeLineIndex(fromPlain('x'), 5000)).toBe(-1);
  });
});
