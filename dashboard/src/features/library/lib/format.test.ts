import { describe, expect, it } from 'vitest';
import { albumOf, artistOf, formatCount, formatDuration, formatKps, formatMB, titleOf } from './format.ts';

describe('library number formatting (spec §9)', () => {
  it('shortens counts with K from 1 000 and M from 1 000 000', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1K');
    expect(formatCount(1234)).toBe('1.2K');
    expect(formatCount(999_999)).toBe('999.9K');
    expect(formatCount(1_000_000)).toBe('1M');
    expect(formatCount(2_560_000)).toBe('2.5M');
    expect(formatCount(1_100_000)).toBe('1.1M');
    expect(formatCount(undefined)).toBe('0');
  });

  it('prints sizes in MB with one decimal', () => {
    expect(formatMB(0)).toBe('0.0 MB');
    expect(formatMB(12.34 * 1024 * 1024)).toBe('12.3 MB');
    expect(formatMB(1536 * 1024)).toBe('1.5 MB');
  });

  it('prints bitrates with the kps suffix', () => {
    expect(formatKps(320)).toBe('320 kps');
    expect(formatKps(1411.2)).toBe('1411 kps');
    expect(formatKps(undefined)).toBe('0 kps');
  });

  it('prints durations as mm:ss and ∞ when not finite', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(187)).toBe('03:07');
    expect(formatDuration(4325.9)).toBe('72:05');
    expect(formatDuration(Infinity)).toBe('∞');
    expect(formatDuration(Number.NaN)).toBe('∞');
    expect(formatDuration(undefined)).toBe('∞');
  });

  it('falls back to 未知歌曲 / 未知艺术家 / 未知专辑', () => {
    expect(titleOf({ title: '' })).toBe('未知歌曲');
    expect(titleOf({ title: '晴天' })).toBe('晴天');
    expect(artistOf({})).toBe('未知艺术家');
    expect(artistOf({ artist: '  ' })).toBe('未知艺术家');
    expect(albumOf(undefined)).toBe('未知专辑');
    expect(albumOf({ album: '叶惠美' })).toBe('叶惠美');
  });
});
