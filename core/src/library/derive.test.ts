import { describe, expect, it } from 'vitest';
import { assignAlbums, dominantArtist } from './derive.ts';
import { splitArtists } from './text.ts';
import { albumIdFor } from './ids.ts';
import { UNKNOWN_ARTIST, VARIOUS_ARTISTS, type MissingField } from './model.ts';

let serial = 0;
/** A track of album "Album" in one folder, as the scanner hands it to `assignAlbums` (no album artist tag). */
const track = (artist: string | null, extra: { folder?: string; album?: string; compilation?: boolean; albumArtist?: string } = {}) => {
  const missing: MissingField[] = ['albumartist'];
  if (artist === null) missing.push('artist');
  const display = artist ?? UNKNOWN_ARTIST;
  return {
    _id: `t${++serial}`,
    album: extra.album ?? 'Album',
    artist: display,
    artists: artist === null ? [UNKNOWN_ARTIST] : splitArtists(artist),
    albumArtistTag: extra.albumArtist ?? null,
    albumArtistsTag: extra.albumArtist ? splitArtists(extra.albumArtist) : [],
    compilationTag: extra.compilation ?? false,
    folderId: extra.folder ?? 'fo-1',
    missing,
  };
};

const albumArtistsOf = (tracks: ReturnType<typeof track>[]) => {
  const out = assignAlbums(tracks);
  return [...new Set(tracks.map((t) => out.get(t._id)!.albumArtist))];
};

describe('album artist of an album without album artist tag', () => {
  it('is the primary artist when some tracks add a guest, in every way of writing it', () => {
    for (const guest of ['Aster & Birch', 'Aster/Birch', 'Aster feat. Birch', 'Aster ft. Birch', 'Aster (feat. Birch)', 'Aster, Birch', 'Aster featuring Birch']) {
      const tracks = [track('Aster'), track('Aster'), track(guest), track('Aster')];
      const out = assignAlbums(tracks);
      expect(albumArtistsOf(tracks), guest).toEqual(['Aster']);
      const a = out.get(tracks[2]!._id)!;
      expect(a.albumId).toBe(albumIdFor('Aster', 'Album'));
      expect(a.albumArtists).toEqual(['Aster']);
      expect(a.compilation).toBe(false);
    }
  });

  it('is the primary artist even when guests are on most tracks, and when some tracks have no artist', () => {
    expect(albumArtistsOf([track('Aster feat. Birch'), track('Aster feat. Cedar'), track('Aster & Dune'), track('Aster')])).toEqual(['Aster']);
    expect(albumArtistsOf([track('Aster'), track(null), track('Aster'), track(null)])).toEqual(['Aster']);
    expect(albumArtistsOf([track(null), track(null)])).toEqual([UNKNOWN_ARTIST]);
  });

  it('keeps a duo whose name holds a separator when one track adds a guest', () => {
    const tracks = [track('Simon & Garfunkel'), track('Simon & Garfunkel'), track('Simon & Garfunkel feat. Paul')];
    expect(albumArtistsOf(tracks)).toEqual(['Simon & Garfunkel']);
    expect(assignAlbums(tracks).get(tracks[2]!._id)!.albumArtists).toEqual(['Simon', 'Garfunkel']);
  });

  it('folds case and width, and shows the spelling most tracks use', () => {
    expect(albumArtistsOf([track('ASTER'), track('Aster feat. B'), track('Aster'), track('Aster')])).toEqual(['Aster']);
  });

  it('is Various Artists when no artist credits at least half of the tracks, or two tie', () => {
    expect(albumArtistsOf([track('Aster'), track('Birch'), track('Cedar')])).toEqual([VARIOUS_ARTISTS]);
    expect(albumArtistsOf([track('Aster'), track('Aster'), track('Birch'), track('Birch')])).toEqual([VARIOUS_ARTISTS]);
    // "Ab" is not a leading part of "Abc": names that merely start alike do not merge.
    expect(albumArtistsOf([track('Ab'), track('Abc')])).toEqual([VARIOUS_ARTISTS]);
    const out = assignAlbums([track('Aster'), track('Birch'), track('Cedar')]);
    expect([...out.values()].every((a) => a.compilation && a.albumId === albumIdFor(VARIOUS_ARTISTS, 'Album'))).toBe(true);
  });

  it('credits at least half: 2 of 4 dominates, 1 of 3 does not', () => {
    expect(albumArtistsOf([track('Aster'), track('Aster'), track('Birch'), track('Cedar')])).toEqual(['Aster']);
    expect(dominantArtist([track('Aster'), track('Birch'), track('Cedar feat. Aster')])).toBeNull();
  });

  it('leaves tagged album artists, compilation flags and other folders alone', () => {
    const tagged = [track('Aster', { albumArtist: 'Birch' }), track('Cedar', { albumArtist: 'Birch' })];
    expect(albumArtistsOf(tagged)).toEqual(['Birch']);
    expect(albumArtistsOf([track('Aster', { compilation: true }), track('Aster', { compilation: true })])).toEqual([VARIOUS_ARTISTS]);
    // Same album name, different folders: each folder is its own group.
    const apart = [track('Aster', { folder: 'fo-a' }), track('Birch', { folder: 'fo-b' })];
    expect(albumArtistsOf(apart).sort()).toEqual(['Aster', 'Birch']);
  });
});
