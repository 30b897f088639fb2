/**
 * Pure derivations from the set of tracks: which album each track belongs to, and the album, artist
 * and genre documents. The scanner runs them over the whole library after any change, so the result
 * never depends on the order files were found in.
 */
import { albumIdFor, artistIdFor } from './ids.ts';
import { compareKeys, fold, splitArtists } from './text.ts';
import { UNKNOWN_ALBUM, VARIOUS_ARTISTS, type AlbumDoc, type ArtistDoc, type GenreDoc, type TrackDoc } from './model.ts';

/** The album fields of a track that depend on its siblings. */
export interface AlbumAssignment {
  albumArtist: string;
  albumArtists: string[];
  albumArtistIds: string[];
  albumId: string;
  compilation: boolean;
}

type TrackInput = Pick<
  TrackDoc,
  '_id' | 'album' | 'artist' | 'artists' | 'albumArtistTag' | 'albumArtistsTag' | 'compilationTag' | 'folderId' | 'missing'
>;

const VARIOUS_FOLDED = fold(VARIOUS_ARTISTS);

/** `fold`, remembered for one derivation: a library names the same albums and artists on every track. */
function foldOnce(): (text: string) => string {
  const folded = new Map<string, string>();
  return (text) => {
    let f = folded.get(text);
    if (f === undefined) folded.set(text, (f = fold(text)));
    return f;
  };
}

/**
 * Album key rules: the album artist tag; else "Various Artists" for compilations and for a folder
 * whose tracks of one album name different artists; else the track artist. Tracks without an album
 * tag stay with their own artist (an "[Unknown Album]" per artist, never a Various Artists one).
 */
export function assignAlbums(tracks: Iterable<TrackInput>): Map<string, AlbumAssignment> {
  const list = [...tracks];
  const folded = foldOnce();
  // Per (folder, album name): do untagged tracks name more than one artist?
  const mixed = new Map<string, Set<string>>();
  const groupKey = (t: TrackInput) => `${t.folderId}\u0000${folded(t.album)}`;
  for (const t of list) {
    if (t.albumArtistTag || t.compilationTag || t.missing.includes('album')) continue;
    const key = groupKey(t);
    let set = mixed.get(key);
    if (!set) mixed.set(key, (set = new Set()));
    set.add(folded(t.artist));
  }
  // Album ids by album artist, then album name, as given (ids hash the folded names).
  const albumIds = new Map<string, Map<string, string>>();
  const albumIdOf = (albumArtist: string, album: string): string => {
    let byName = albumIds.get(albumArtist);
    if (!byName) albumIds.set(albumArtist, (byName = new Map()));
    let id = byName.get(album);
    if (id === undefined) byName.set(album, (id = albumIdFor(albumArtist, album)));
    return id;
  };
  const out = new Map<string, AlbumAssignment>();
  for (const t of list) {
    let albumArtist: string;
    let albumArtists: string[];
    if (t.albumArtistTag) {
      albumArtist = t.albumArtistTag;
      albumArtists = t.albumArtistsTag.length > 0 ? t.albumArtistsTag : splitArtists(t.albumArtistTag);
    } else if (t.compilationTag || (!t.missing.includes('album') && (mixed.get(groupKey(t))?.size ?? 0) > 1)) {
      albumArtist = VARIOUS_ARTISTS;
      albumArtists = [VARIOUS_ARTISTS];
    } else {
      albumArtist = t.artist;
      albumArtists = t.artists.length > 0 ? t.artists : [t.artist];
    }
    const compilation = t.compilationTag || folded(albumArtist) === VARIOUS_FOLDED;
    out.set(t._id, {
      albumArtist,
      albumArtists,
      albumArtistIds: albumArtists.map(artistIdFor),
      albumId: albumIdOf(albumArtist, t.album || UNKNOWN_ALBUM),
      compilation,
    });
  }
  return out;
}

export interface Aggregates {
  albums: AlbumDoc[];
  artists: ArtistDoc[];
  genres: GenreDoc[];
}

/** Orders tracks the way an album lists them: disc, track number, then path. */
export const compareTrackOrder = (a: TrackDoc, b: TrackDoc): number =>
  (a.disc ?? 1) - (b.disc ?? 1) || (a.track ?? 1e9) - (b.track ?? 1e9) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

const mostCommon = <T>(values: Iterable<T>): T[] => {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
};

/** Album, artist and genre documents for a complete set of (album-assigned) tracks. */
export function aggregate(tracks: Iterable<TrackDoc>): Aggregates {
  const byAlbum = new Map<string, TrackDoc[]>();
  for (const t of tracks) {
    const list = byAlbum.get(t.albumId);
    if (list) list.push(t);
    else byAlbum.set(t.albumId, [t]);
  }

  const albums: AlbumDoc[] = [];
  interface ArtistAcc {
    name: string;
    tracks: Set<string>;
    albums: Set<string>;
    genres: string[];
    createdAt: Date;
  }
  const artists = new Map<string, ArtistAcc>();
  const touchArtist = (id: string, name: string, createdAt: Date): ArtistAcc => {
    let a = artists.get(id);
    if (!a) artists.set(id, (a = { name, tracks: new Set(), albums: new Set(), genres: [], createdAt }));
    else if (createdAt < a.createdAt) a.createdAt = createdAt;
    return a;
  };
  const genreSongs = new Map<string, { name: string; songs: number; albums: Set<string> }>();
  const folded = foldOnce();

  for (const [albumId, list] of byAlbum) {
    list.sort(compareTrackOrder);
    const first = list[0]!;
    const albumArtistIds = new Set(first.albumArtistIds);
    const others = new Map<string, string>();
    let duration = 0;
    let size = 0;
    let createdAt = first.createdAt;
    let updatedAt = first.updatedAt;
    const discs = new Set<number>();
    let maxDisc = 1;
    for (const t of list) {
      duration += t.duration;
      size += t.size;
      if (t.createdAt < createdAt) createdAt = t.createdAt;
      if (t.updatedAt > updatedAt) updatedAt = t.updatedAt;
      discs.add(t.disc ?? 1);
      maxDisc = Math.max(maxDisc, t.disc ?? 1, t.discTotal ?? 1);
      t.artistIds.forEach((id, i) => {
        if (!albumArtistIds.has(id) && !others.has(id)) others.set(id, t.artists[i] ?? t.artist);
        const a = touchArtist(id, t.artists[i] ?? t.artist, t.createdAt);
        a.tracks.add(t._id);
        a.albums.add(albumId);
        a.genres.push(...t.genres);
      });
      t.albumArtistIds.forEach((id, i) => {
        const a = touchArtist(id, t.albumArtists[i] ?? t.albumArtist, t.createdAt);
        a.tracks.add(t._id);
        a.albums.add(albumId);
        if (!t.artistIds.includes(id)) a.genres.push(...t.genres);
      });
      for (const g of t.genres) {
        const key = folded(g);
        let acc = genreSongs.get(key);
        if (!acc) genreSongs.set(key, (acc = { name: g, songs: 0, albums: new Set() }));
        acc.songs++;
        acc.albums.add(albumId);
      }
    }
    const years = list.map((t) => t.year).filter((y): y is number => y !== null);
    const genres = mostCommon(list.flatMap((t) => t.genres));
    albums.push({
      _id: albumId,
      name: first.album,
      artist: first.albumArtist,
      artists: first.albumArtists,
      artistIds: first.albumArtistIds,
      otherArtists: [...others].map(([id, name]) => ({ id, name })),
      year: years.length ? mostCommon(years)[0]! : null,
      minYear: years.length ? Math.min(...years) : null,
      maxYear: years.length ? Math.max(...years) : null,
      genre: genres[0] ?? null,
      genres,
      songCount: list.length,
      discCount: Math.max(discs.size, maxDisc),
      duration,
      size,
      compilation: list.some((t) => t.compilation),
      coverPath: list.find((t) => t.folderCover)?.folderCover ?? null,
      coverTrackId: list.find((t) => t.hasArt)?._id ?? null,
      comment: list.find((t) => t.comment)?.comment ?? null,
      root: first.root,
      folderId: first.folderId,
      createdAt,
      updatedAt,
      rev: 0,
    });
  }

  const albumById = new Map(albums.map((a) => [a._id, a]));
  const artistDocs: ArtistDoc[] = [];
  for (const [id, a] of artists) {
    // The artist's picture until one is set: its latest album that has a cover.
    let cover: AlbumDoc | null = null;
    for (const albumId of a.albums) {
      const al = albumById.get(albumId)!;
      if (!al.coverPath && !al.coverTrackId) continue;
      if (!cover || (al.year ?? 0) > (cover.year ?? 0) || ((al.year ?? 0) === (cover.year ?? 0) && compareKeys(al.name, cover.name) < 0)) cover = al;
    }
    artistDocs.push({
      _id: id,
      name: a.name,
      albumCount: a.albums.size,
      songCount: a.tracks.size,
      genres: mostCommon(a.genres).slice(0, 5),
      coverAlbumId: cover?._id ?? null,
      createdAt: a.createdAt,
      rev: 0,
    });
  }

  const genres: GenreDoc[] = [...genreSongs.values()].map((g) => ({
    _id: g.name,
    name: g.name,
    albumCount: g.albums.size,
    songCount: g.songs,
    rev: 0,
  }));
  return { albums, artists: artistDocs, genres };
}

/** Compares two derived documents, ignoring the revision stamp. */
export function sameDoc(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'rev') continue;
    if (!sameValue(a[key], b[key])) return false;
  }
  return true;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') return sameDoc(a as Record<string, unknown>, b as Record<string, unknown>);
  // null and undefined are the same "absent" for stored documents
  return (a === null || a === undefined) && (b === null || b === undefined);
}
