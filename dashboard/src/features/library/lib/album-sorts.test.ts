import { describe, expect, it } from 'vitest';
import { albumQuery, albumSort, ALBUM_SORTS } from './album-sorts.ts';

describe('album sorts (spec §2)', () => {
  it('maps the six route sorts to getAlbumList2 types, 50 per batch', () => {
    expect(ALBUM_SORTS.map((s) => [s.key, albumQuery(s.key, '').type])).toEqual([
      ['recently-added', 'newest'],
      ['recently-played', 'recent'],
      ['most-played', 'frequent'],
      ['a-z', 'alphabeticalByName'],
      ['artist-sort', 'alphabeticalByArtist'],
      ['less_cover', 'less_cover'],
    ]);
    expect(albumQuery('a-z', '').pageSize).toBe(50);
  });

  it('a global term searches, 30 per batch, whatever the sort', () => {
    expect(albumQuery('most-played', '周杰伦')).toEqual({ type: 'search', pageSize: 30 });
    expect(albumQuery('a-z', '   ').type).toBe('alphabeticalByName');
  });

  it('an unknown sort is not one of them (the page redirects) and lists the newest meanwhile', () => {
    expect(albumSort('loudest')).toBeUndefined();
    expect(albumQuery('loudest', '').type).toBe('newest');
  });
});
