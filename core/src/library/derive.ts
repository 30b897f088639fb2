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
 * Album key rules: the album artist tag; else "Various Artists" for compilations; else, for the tracks
 * of one album name in one folder, the artist that dominates them (see `dominantArtist`): a guest on
 * some tracks ("A feat. B", "A & B") or a track without an artist does not make the album a
 * compilation. Only when no artist dominates is it filed under "Various Artists". Tracks without an
 * album tag stay with their own artist (an "[Unknown Album]" per artist, never a Various Artists one).
 */
export function assignAlbums(tracks: Iterable<TrackInput>): Map<string, AlbumAssignment> {
  const list = [...tracks];
  const folded = foldOnce();
  // Per (folder, album name): the tracks that take their album artist from their siblings.
  const groups = new Map<string, TrackInput[]>();
  const groupKey = (t: TrackInput) => `${t.folderId}\u0000${folded(t.album)}`;
  for (const t of list) {
    if (t.albumArtistTag || t.compilationTag || t.missing.includes('album')) continue;
    const key = groupKey(t);
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  // Per group whose tracks do not all name the same artist: the dominant one, or null (Various Artists).
  const derived = new Map<string, AlbumArtist | null>();
  for (const [key, group] of groups) {
    const first = folded(group[0]!.artist);
    if (group.every((t) => folded(t.artist) === first)) continue;
    derived.set(key, dominantArtist(group, folded));
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
    const fromSiblings = t.albumArtistTag || t.compilationTag || t.missing.includes('album') ? undefined : derived.get(groupKey(t));
    if (t.albumArtistTag) {
      albumArtist = t.albumArtistTag;
      albumArtists = t.albumArtistsTag.length > 0 ? t.albumArtistsTag : splitArtists(t.albumArtistTag);
    } else if (t.compilationTag || fromSiblings === null) {
      albumArtist = VARIOUS_ARTISTS;
      albumArtists = [VARIOUS_ARTISTS];
    } else if (fromSiblings) {
      ({ name: albumArtist, names: albumArtists } = fromSiblings);
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

/** An album artist worked out from the tracks: the display name and the individual names. */
interface AlbumArtist {
  name: string;
  names: string[];
}

/** Share of the tracks with an artist that must credit the dominant artist (half: see `dominantArtist`). */
export const DOMINANT_SHARE = 0.5;

/**
 * The artist that dominates the tracks of one album in one folder, or null when none does.
 *
 * Only tracks that have an artist tag count. Each track credits its whole artist string ("Simon &
 * Garfunkel feat. X") and every leading part of it that ends before a separator ("Simon & Garfunkel",
 * "Simon"): the primary artist of "A feat. B", "A & B", "A/B", "A, B" and "A (feat. B)" is A. The
 * candidate credited by the most tracks dominates when at least `DOMINANT_SHARE` of the counted
 * tracks credit it; among candidates credited equally, the longest wins when every other one is a
 * leading part of it ("Simon & Garfunkel" over "Simon"), otherwise the tie means no artist dominates
 * (an album split half and half between A and B is a compilation). The spelling shown is the one
 * most tracks use (then the smallest, so the result never depends on the order files were found in).
 */
export function dominantArtist(tracks: readonly TrackInput[], folded: (text: string) => string = fold): AlbumArtist | null {
  const credits = new Map<string, number>();
  const spellings = new Map<string, Map<string, number>>();
  const names = new Map<string, string[]>();
  let counted = 0;
  for (const t of tracks) {
    if (t.missing.includes('artist')) continue;
    counted++;
    const credited = new Set<string>();
    for (const [display, parts] of leadingCredits(t)) {
      const key = folded(display);
      if (credited.has(key)) continue;
      credited.add(key);
      credits.set(key, (credits.get(key) ?? 0) + 1);
      let s = spellings.get(key);
      if (!s) spellings.set(key, (s = new Map()));
      s.set(display, (s.get(display) ?? 0) + 1);
      if (!names.has(key)) names.set(key, parts);
    }
  }
  if (counted === 0) return null;
  let best = 0;
  for (const n of credits.values()) best = Math.max(best, n);
  if (best < counted * DOMINANT_SHARE) return null;
  const top = [...credits.keys()].filter((k) => credits.get(k) === best).sort((a, b) => b.length - a.length);
  const winner = top[0]!;
  if (!top.every((k) => k === winner || (winner.startsWith(k) && /^[^\p{L}\p{N}]/u.test(winner.slice(k.length))))) return null;
  const name = [...spellings.get(winner)!].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]![0];
  return { name, names: names.get(winner)! };
}

/**
 * What one track credits: its whole artist string with its individual names, and each leading run of
 * those names as it is written ("A & B feat. C" → "A & B feat. C", "A & B", "A"). Tags that carry
 * several artists as separate values credit the first value and the whole list.
 */
function leadingCredits(t: TrackInput): Array<[string, string[]]> {
  const parts = t.artists.length > 0 ? t.artists : [t.artist];
  const out: Array<[string, string[]]> = [[t.artist, parts]];
  for (let n = parts.length - 1; n >= 1; n--) {
    const lead = parts.slice(0, n);
    // The display text up to the end of the n-th name, when the names appear in it in order.
    let at = 0;
    for (const p of lead) {
      const i = t.artist.indexOf(p, at);
      if (i < 0) {
        at = -1;
        break;
      }
      at = i + p.length;
    }
    out.push([at > 0 && n > 1 ? t.artist.slice(0, at) : lead[0]!, n > 1 && at > 0 ? lead : [lead[0]!]]);
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
