import { describe, expect, it } from 'vitest';
import { albumArtistChoices } from './artist-split.ts';

describe('album-artist choices (§5)', () => {
  it('splits on comma, slash, ampersand, 、 and ， and offers the whole string last', () => {
    expect(albumArtistChoices('周杰伦、费玉清')).toEqual(['周杰伦', '费玉清', '周杰伦、费玉清']);
    expect(albumArtistChoices('A, B / C & D，E')).toEqual(['A', 'B', 'C', 'D', 'E', 'A, B / C & D，E']);
  });

  it('offers a single artist once, trims, drops empty parts and duplicates', () => {
    expect(albumArtistChoices('  Grace Whitfield ')).toEqual(['Grace Whitfield']);
    expect(albumArtistChoices('A,,A/ ')).toEqual(['A', 'A,,A/']);
    expect(albumArtistChoices('')).toEqual([]);
    expect(albumArtistChoices(null)).toEqual([]);
  });
});
