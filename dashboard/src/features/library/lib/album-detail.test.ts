import { describe, expect, it } from 'vitest';
import { otherArtists } from './album-detail.ts';

describe('otherArtists (the album page’s 其他艺术家)', () => {
  it('lists the tracks’ artists who are not the album artist, each once, in order of appearance', () => {
    const album = {
      artistId: 'ar-1',
      artists: [{ id: 'ar-1', name: '赵长青' }],
      song: [
        { id: 't1', title: 'a', artistId: 'ar-1', artist: '赵长青' },
        { id: 't2', title: 'b', artists: [{ id: 'ar-1', name: '赵长青' }, { id: 'ar-2', name: '南方车站乐队' }] },
        { id: 't3', title: 'c', artists: [{ id: 'ar-3', name: '张国华' }, { id: 'ar-2', name: '南方车站乐队' }] },
      ],
    };
    expect(otherArtists(album)).toEqual([
      { id: 'ar-2', name: '南方车站乐队' },
      { id: 'ar-3', name: '张国华' },
    ]);
  });

  it('is empty for a one-artist album or one without songs', () => {
    expect(otherArtists({ artistId: 'ar-1', song: [{ id: 't', title: 'x', artistId: 'ar-1', artist: 'A' }] })).toEqual([]);
    expect(otherArtists({ artistId: 'ar-1' })).toEqual([]);
  });
});
