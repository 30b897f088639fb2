import { describe, expect, it } from 'vitest';
import { commonFolder, shownValue } from './change-paths.ts';

describe('dry-run paths', () => {
  it('finds the folder every path shares, never cutting a name in two', () => {
    expect(commonFolder(['/m/lib/A/x.flac', '/m/tidied/A/B/x.flac'])).toBe('/m/');
    expect(commonFolder(['/m/lib/Abc/x.flac', '/m/lib/Abd/y.flac'])).toBe('/m/lib/');
    expect(commonFolder(['/m/a.flac'])).toBe('/m/');
    expect(commonFolder([])).toBe('');
  });

  it('shortens moves below that folder and leaves tag values and the root alone', () => {
    const move = { path: '/m/lib/x.flac', kind: 'move' as const, before: '/m/lib/x.flac', after: '/m/t/x.flac' };
    expect(shownValue(move, move.after, '/m/')).toBe('…/t/x.flac');
    expect(shownValue(move, move.after, '/')).toBe('/m/t/x.flac');
    expect(shownValue({ path: '/m/x', kind: 'tags', field: 'title', before: '/m/x', after: null }, '/m/x', '/m/')).toBe('/m/x');
    expect(shownValue(move, null, '/m/')).toBe('—');
  });
});
