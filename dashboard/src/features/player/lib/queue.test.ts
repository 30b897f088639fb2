import { describe, expect, it } from 'vitest';
import { clampIndex, clearKeepingCurrent, endedStep, jumpIndex, nextIndex, previousStep, shuffleKeepingFirst, shuffled, startList } from './queue.ts';
import { restoreTrack, toPlayerTrack } from './track.ts';

/** A reproducible random source: a simple LCG. */
const seeded = (seed: number) => () => {
  seed = (seed * 1664525 + 1013904223) % 2 ** 32;
  return seed / 2 ** 32;
};
const list = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

describe('player queue rules (§4)', () => {
  it('next moves +1 and wraps to 0 past the end', () => {
    expect(nextIndex(0, 3)).toBe(1);
    expect(nextIndex(1, 3)).toBe(2);
    expect(nextIndex(2, 3)).toBe(0);
    expect(nextIndex(0, 1)).toBe(0);
    expect(nextIndex(0, 0)).toBe(0);
  });

  it('previous restarts the current track after more than 3 s, else goes back one', () => {
    expect(previousStep(2, 5, 3.5)).toEqual({ index: 2, restart: true });
    expect(previousStep(2, 5, 3)).toEqual({ index: 1, restart: false });
    expect(previousStep(2, 5, 0.4)).toEqual({ index: 1, restart: false });
    // From the first track it wraps to the last, as next wraps from the last to the first.
    expect(previousStep(0, 5, 1)).toEqual({ index: 4, restart: false });
  });

  it('a track end goes on if there is a next track or repeat is on, else back to the first, paused', () => {
    expect(endedStep(0, 3, false)).toEqual({ index: 1, playing: true });
    expect(endedStep(1, 3, true)).toEqual({ index: 2, playing: true });
    expect(endedStep(2, 3, true)).toEqual({ index: 0, playing: true });
    expect(endedStep(2, 3, false)).toEqual({ index: 0, playing: false });
    expect(endedStep(0, 1, true)).toEqual({ index: 0, playing: true });
    expect(endedStep(0, 1, false)).toEqual({ index: 0, playing: false });
  });

  it('clearing keeps only the current track', () => {
    expect(clearKeepingCurrent(list, 3)).toEqual({ queue: ['d'], index: 0 });
    expect(clearKeepingCurrent([], 0)).toEqual({ queue: [], index: 0 });
  });

  it('shuffling keeps the current track first and every track once', () => {
    const r = shuffleKeepingFirst(list, 5, seeded(7));
    expect(r.index).toBe(0);
    expect(r.queue[0]).toBe('f');
    expect([...r.queue].sort()).toEqual(list);
    expect(r.queue).not.toEqual(['f', ...list.filter((x) => x !== 'f')]);
    expect(shuffled(list, seeded(1))).not.toEqual(list);
  });

  it('a list played without an index starts at the first track, or a random one with shuffle', () => {
    expect(startList(list, undefined, false)).toEqual({ queue: list, index: 0 });
    const picks = new Set<string>();
    const random = seeded(3);
    for (let i = 0; i < 20; i++) {
      const r = startList(list, undefined, true, random);
      expect(r.index).toBe(0);
      expect([...r.queue].sort()).toEqual(list);
      picks.add(r.queue[0]);
    }
    expect(picks.size).toBeGreaterThan(3);
  });

  it('a list played at an index starts there; with shuffle it is reshuffled with that track first', () => {
    expect(startList(list, 4, false)).toEqual({ queue: list, index: 4 });
    const r = startList(list, 4, true, seeded(11));
    expect(r.index).toBe(0);
    expect(r.queue[0]).toBe('e');
    expect([...r.queue].sort()).toEqual(list);
    expect(startList([], 2, true)).toEqual({ queue: [], index: 0 });
  });

  it('stale or hand-made indexes stay inside the queue', () => {
    expect(clampIndex(9, 3)).toBe(2);
    expect(clampIndex(-1, 3)).toBe(0);
    expect(clampIndex(1.5, 3)).toBe(0);
    expect(jumpIndex(1, 7, 3)).toBe(1);
    expect(jumpIndex(1, 2, 3)).toBe(2);
  });
});

describe('toPlayerTrack', () => {
  it('takes the Subsonic fields and falls back to 未知歌曲 / 未知艺术家 / 未知专辑', () => {
    expect(toPlayerTrack({ id: 'tr-1', title: 'Song', artist: 'Ann', artistId: 'ar-1', album: 'LP', albumId: 'al-1', coverArt: 'al-1', duration: 201, size: 9 })).toEqual({
      id: 'tr-1',
      title: 'Song',
      artist: 'Ann',
      artistId: 'ar-1',
      album: 'LP',
      albumId: 'al-1',
      coverArt: 'al-1',
      duration: 201,
    });
    const bare = toPlayerTrack({ id: 'tr-2', title: '  ', duration: Number.NaN });
    expect([bare.title, bare.artist, bare.album, bare.duration]).toEqual(['未知歌曲', '未知艺术家', '未知专辑', 0]);
  });

  it('reads a stored entry back, dropping one without an id', () => {
    expect(restoreTrack({ id: 'r', title: 'Radio', isStream: true, url: 'http://x/s' })).toMatchObject({ id: 'r', isStream: true, url: 'http://x/s' });
    expect(restoreTrack({ title: 'no id' })).toBeNull();
    expect(restoreTrack('junk')).toBeNull();
  });
});
