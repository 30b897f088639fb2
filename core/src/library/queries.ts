/**
 * The library query service: everything the Subsonic API and the dashboard read about the library,
 * answered from the in-memory catalogue (synced with the store before each call) plus the asking
 * user's annotations. Every list is paged; no call scans the store.
 */
import { readFile } from 'node:fs/promises';
import { invalid, notFound } from '../errors/errors.ts';
import type { Annotations } from './annotations.ts';
import type { ArtistMeta } from './artist-meta.ts';
import type { EntityMeta } from './entity-meta.ts';
import { searchText, type Catalog, type FolderNode } from './catalog.ts';
import { idKind } from './ids.ts';
import type { LibraryStore } from './library-store.ts';
import type { AlbumDoc, ArtistDoc, ItemType, TrackDoc } from './model.ts';
import { fold, IGNORED_ARTICLES, indexLetter, matchesTerms, searchTerms } from './text.ts';
import { matchingEntries, type TextIndex } from './text-index.ts';
import { albumView, artistView, marksOf, songView, type AlbumView, type ArtistView, type IdName, type SongView } from './views.ts';

export const MAX_PAGE = 500;

export interface MusicFolder {
  /** 1, 2, 3 … in the order media, download, webdav. */
  id: number;
  name: string;
  path: string;
}

export type AlbumListType =
  | 'random'
  | 'newest'
  | 'highest'
  | 'frequent'
  | 'recent'
  | 'alphabeticalByName'
  | 'alphabeticalByArtist'
  | 'starred'
  | 'byYear'
  | 'byGenre'
  | 'less_cover'
  | 'search'
  | 'byArtist';

export const ALBUM_LIST_TYPES: readonly AlbumListType[] = [
  'random',
  'newest',
  'highest',
  'frequent',
  'recent',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'starred',
  'byYear',
  'byGenre',
  'less_cover',
  'search',
  'byArtist',
];

export interface AlbumListOptions {
  type: AlbumListType;
  /** Default 10 (Subsonic), at most 500. */
  size?: number;
  offset?: number;
  fromYear?: number;
  toYear?: number;
  genre?: string;
  /** For byArtist. */
  artistId?: string;
  /** For search. */
  search?: string;
  musicFolderId?: number;
  userId?: string;
}

export type ArtistSort = 'a-z' | 'most_albums' | 'less_cover';

export interface ArtistListOptions {
  sort?: ArtistSort;
  search?: string;
  offset?: number;
  size?: number;
  musicFolderId?: number;
  userId?: string;
}

export interface SearchOptions {
  query?: string;
  artistCount?: number;
  artistOffset?: number;
  albumCount?: number;
  albumOffset?: number;
  songCount?: number;
  songOffset?: number;
  musicFolderId?: number;
  userId?: string;
}

export interface SearchResult {
  artists: ArtistView[];
  albums: AlbumView[];
  songs: SongView[];
}

export interface IndexGroup {
  name: string;
  artists: ArtistView[];
}

export interface Indexes {
  /** Milliseconds since the epoch of the last library change (Subsonic `lastModified`). */
  lastModified: number;
  ignoredArticles: string;
  index: IndexGroup[];
  /** Songs directly inside the music folder(s). */
  songs: SongView[];
}

export interface DirectoryChild {
  id: string;
  isDir: true;
  title: string;
  parent: string | null;
  coverArt: string | null;
  album?: string;
  artist?: string;
  year?: number | null;
}

export interface Directory {
  id: string;
  name: string;
  parent: string | null;
  starred?: Date;
  folders: DirectoryChild[];
  songs: SongView[];
}

export interface GenreView {
  name: string;
  albumCount: number;
  songCount: number;
}

export type GenreSort = 'a-z' | 'most_albums' | 'most_tracks';

export interface ArtistDetail extends ArtistView {
  /** Year descending. */
  albums: AlbumView[];
}

export interface AlbumDetail extends AlbumView {
  /** Disc/track order. */
  songs: SongView[];
}

export interface ArtistInfo {
  id: string;
  albumCount: number;
  songCount: number;
  coverArt: string;
  genres: string[];
  biography: string | null;
  similarArtists: ArtistView[];
}

export interface AlbumInfo {
  id: string;
  notes: string | null;
  coverArt: string;
  songCount: number;
  duration: number;
  genres: string[];
  artists: IdName[];
}

export interface CoverArt {
  /** `embedded`: the picture inside the audio file at `path`; `file`: an image file. */
  kind: 'embedded' | 'file';
  path: string;
  /** The track whose file embeds it. */
  trackId?: string;
}

export interface LyricLine {
  /** Milliseconds; null for unsynced text. */
  start: number | null;
  value: string;
}

export interface Lyrics {
  source: 'lrc' | 'embedded';
  synced: boolean;
  lines: LyricLine[];
  /** The whole text, lines joined with \n (without time stamps). */
  text: string;
}

export interface Discover {
  hotArtists: Array<ArtistView & { playCount: number; latestAlbum: { id: string; name: string; year: number | null } | null }>;
  hotTrack: (SongView & { totalPlayCount: number }) | null;
  randomSongs: SongView[];
  recommendAlbums: AlbumView[];
  newAlbums: Array<AlbumView & { ratingCount: number }>;
  featuredAlbum: (AlbumView & { totalPlayCount: number }) | null;
  similarArtists: ArtistView[];
  recentPlays: Array<SongView & { playedAt: Date }>;
}

export interface LibrarySummary {
  tracks: number;
  albums: number;
  artists: number;
  genres: number;
  /** Seconds. */
  duration: number;
  /** Bytes. */
  size: number;
  lastScan: Date | null;
}

const ROOT_ORDER = ['media', 'download', 'webdav'];

/** Similar artists kept per artist (see `similarArtistDocs`). */
const SIMILAR_KEPT = 50;

const clampSize = (size: number | undefined, fallback: number): number => {
  if (size === undefined || !Number.isFinite(size)) return fallback;
  return Math.max(0, Math.min(MAX_PAGE, Math.trunc(size)));
};
const clampOffset = (offset: number | undefined): number => (offset === undefined || !Number.isFinite(offset) ? 0 : Math.max(0, Math.trunc(offset)));

/** Items offset … offset+size of those passing `keep`, stopping as soon as the page is full. */
function pageOf<T>(items: readonly T[], offset: number, size: number, keep?: (item: T, index: number) => boolean): T[] {
  if (size === 0) return [];
  if (!keep) return items.slice(offset, offset + size);
  const out: T[] = [];
  let skipped = 0;
  for (let i = 0; i < items.length && out.length < size; i++) {
    if (!keep(items[i]!, i)) continue;
    if (skipped < offset) skipped++;
    else out.push(items[i]!);
  }
  return out;
}

/** A page of the items whose search text holds every term, in index order, optionally filtered. */
function pageOfMatches<T>(items: readonly T[], index: TextIndex, terms: readonly string[], offset: number, size: number, keep?: (item: T) => boolean): T[] {
  if (size === 0) return [];
  if (terms.length === 0) return pageOf(items, offset, size, keep);
  const out: T[] = [];
  let skipped = 0;
  for (const i of matchingEntries(index, terms)) {
    const item = items[i]!;
    if (keep && !keep(item)) continue;
    if (skipped < offset) skipped++;
    else if (out.length < size) out.push(item);
    if (out.length === size) break;
  }
  return out;
}

/**
 * `count` random items among those passing `keep` (all of them when fewer pass), like `sample` over the
 * filtered list: by drawing at random until enough pass, which spares filtering a large list when
 * many pass; filtering all of them only when few do.
 */
export function sampleWhere<T>(items: readonly T[], count: number, keep: (item: T) => boolean, random: () => number = Math.random): T[] {
  const picked = new Set<number>();
  const tried = new Set<number>();
  for (let draws = 0; picked.size < count && draws < count * 20 && tried.size < items.length; draws++) {
    const i = Math.floor(random() * items.length);
    if (tried.has(i)) continue;
    tried.add(i);
    if (keep(items[i]!)) picked.add(i);
  }
  if (picked.size === count) return [...picked].map((i) => items[i]!);
  return sample(items.filter(keep), count, random);
}

/** `count` distinct random items (all of them, shuffled, when there are fewer). */
export function sample<T>(items: readonly T[], count: number, random: () => number = Math.random): T[] {
  const n = items.length;
  if (count >= n) {
    const copy = [...items];
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(random() * n));
  return [...picked].map((i) => items[i]!);
}

export class LibraryQueries {
  private readonly catalog: Catalog;
  private readonly annotations: Annotations;
  private readonly library: LibraryStore;
  private readonly artistMeta: ArtistMeta | null;
  private readonly entities: EntityMeta | null;

  constructor(catalog: Catalog, annotations: Annotations, library: LibraryStore, artistMeta?: ArtistMeta, entities?: EntityMeta) {
    this.catalog = catalog;
    this.annotations = annotations;
    this.library = library;
    this.artistMeta = artistMeta ?? null;
    this.entities = entities ?? null;
  }

  // ---------------------------------------------------------------- helpers

  private async songs(tracks: readonly TrackDoc[], userId: string | undefined): Promise<SongView[]> {
    const marks = await this.annotations.forItems(userId, 'track', tracks.map((t) => t._id));
    const own = this.entities;
    if (own) await own.synced();
    return tracks.map((t) => songView(own ? own.track(t) : t, marksOf(marks.get(t._id))));
  }

  private async albumViews(albums: readonly AlbumDoc[], userId: string | undefined): Promise<AlbumView[]> {
    const marks = await this.annotations.forItems(userId, 'album', albums.map((a) => a._id));
    // Names and comments set on the album screen without writing the files (entity-meta.ts).
    const own = this.entities;
    if (own) await own.synced();
    return albums.map((a) => albumView(own ? own.album(a) : a, marksOf(marks.get(a._id))));
  }

  private async artistViews(artists: readonly ArtistDoc[], userId: string | undefined): Promise<ArtistView[]> {
    const marks = await this.annotations.forItems(userId, 'artist', artists.map((a) => a._id));
    const letters = this.catalog.view().artistLetters;
    const own = this.entities;
    if (own) await own.synced();
    return artists.map((a) => artistView(own ? own.artist(a) : a, letters.get(a._id) ?? indexLetter(a.name), marksOf(marks.get(a._id))));
  }

  private rootName(musicFolderId: number | undefined): string | undefined {
    if (musicFolderId === undefined) return undefined;
    const folder = this.musicFoldersNow().find((f) => f.id === musicFolderId);
    if (!folder) throw notFound('TAGSONIC_ERR_LIBRARY_NO_MUSIC_FOLDER', `No music folder with id ${musicFolderId}.`, { musicFolderId });
    return folder.name;
  }

  private track(id: string): TrackDoc {
    const t = this.catalog.tracks.get(id);
    if (!t) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song with id "${id}".`, { id });
    return t;
  }

  private album(id: string): AlbumDoc {
    const a = this.catalog.albums.get(id);
    if (!a) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No album with id "${id}".`, { id });
    return a;
  }

  private artist(id: string): ArtistDoc {
    const a = this.catalog.artists.get(id);
    if (!a) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No artist with id "${id}".`, { id });
    return a;
  }

  private musicFoldersNow(): MusicFolder[] {
    const rank = (name: string) => (ROOT_ORDER.includes(name) ? ROOT_ORDER.indexOf(name) : ROOT_ORDER.length);
    return [...this.catalog.rootInfos]
      .sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1))
      .map((r, i) => ({ id: i + 1, name: r.name, path: r.dir }));
  }

  // ---------------------------------------------------------------- browsing

  async musicFolders(): Promise<MusicFolder[]> {
    return this.musicFoldersNow();
  }

  async summary(): Promise<LibrarySummary> {
    await this.catalog.sync();
    let duration = 0;
    let size = 0;
    for (const t of this.catalog.tracks.values()) {
      duration += t.duration;
      size += t.size;
    }
    const state = await this.library.readState();
    return {
      tracks: this.catalog.tracks.size,
      albums: this.catalog.albums.size,
      artists: this.catalog.artists.size,
      genres: this.catalog.genres.size,
      duration,
      size,
      lastScan: state.lastScan?.at ?? null,
    };
  }

  /** Artists grouped by index letter (Subsonic getIndexes/getArtists). */
  async indexes(options: { musicFolderId?: number; userId?: string } = {}): Promise<Indexes> {
    await this.catalog.sync();
    const root = this.rootName(options.musicFolderId);
    const view = this.catalog.view();
    let artists = view.artistsByName;
    if (root !== undefined) artists = artists.filter((a) => (view.artistTracks.get(a._id) ?? []).some((t) => t.root === root));
    const views = await this.artistViews(artists, options.userId);
    const groups = new Map<string, ArtistView[]>();
    for (const v of views) {
      const list = groups.get(v.index);
      if (list) list.push(v);
      else groups.set(v.index, [v]);
    }
    const rootNodes = view.rootFolders.filter((n) => root === undefined || n.root === root);
    const songs = await this.songs(rootNodes.flatMap((n) => n.tracks), options.userId);
    const state = await this.library.readState();
    return {
      lastModified: state.lastScan?.at.getTime() ?? 0,
      ignoredArticles: IGNORED_ARTICLES.join(' '),
      index: [...groups].map(([name, list]) => ({ name, artists: list })),
      songs,
    };
  }

  /** The artists list of the dashboard (and getArtists with paging): a-z, most albums, or missing covers first. */
  async artists(options: ArtistListOptions = {}): Promise<{ total: number; items: ArtistView[] }> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const root = this.rootName(options.musicFolderId);
    const terms = searchTerms(options.search);
    let list: ArtistDoc[] = view.artistsByName;
    if (terms.length) list = [...matchingEntries(view.artistText, terms)].map((i) => view.artistsByName[i]!);
    if (root !== undefined) list = list.filter((a) => (view.artistTracks.get(a._id) ?? []).some((t) => t.root === root));
    const sort = options.sort ?? 'a-z';
    if (sort === 'most_albums') list = [...list].sort((a, b) => b.albumCount - a.albumCount || b.songCount - a.songCount);
    else if (sort === 'less_cover') list = [...list].sort((a, b) => Number(a.coverAlbumId !== null) - Number(b.coverAlbumId !== null));
    else if (sort !== 'a-z') throw invalid('TAGSONIC_ERR_LIBRARY_BAD_SORT', `Unknown artist order "${String(sort)}"; use a-z, most_albums or less_cover.`);
    const items = pageOf(list, clampOffset(options.offset), clampSize(options.size, 50));
    return { total: list.length, items: await this.artistViews(items, options.userId) };
  }

  /** One artist with its albums, newest year first (albums where it is album artist or appears). */
  async artistDetail(id: string, userId?: string): Promise<ArtistDetail> {
    await this.catalog.sync();
    const artist = this.artist(id);
    const [view] = await this.artistViews([artist], userId);
    const albums = await this.albumViews(this.catalog.view().artistAlbums.get(id) ?? [], userId);
    return { ...view!, albums };
  }

  /** One album with its songs in disc/track order. */
  async albumDetail(id: string, userId?: string): Promise<AlbumDetail> {
    await this.catalog.sync();
    const album = this.album(id);
    const [view] = await this.albumViews([album], userId);
    const songs = await this.songs(this.catalog.view().albumTracks.get(id) ?? [], userId);
    return { ...view!, songs };
  }

  async song(id: string, userId?: string): Promise<SongView> {
    await this.catalog.sync();
    const [song] = await this.songs([this.track(id)], userId);
    return song!;
  }

  /** Songs by id, in the given order; unknown ids are left out. */
  async songsByIds(ids: readonly string[], userId?: string): Promise<SongView[]> {
    await this.catalog.sync();
    const tracks = ids.map((id) => this.catalog.tracks.get(id)).filter((t): t is TrackDoc => t !== undefined);
    return this.songs(tracks, userId);
  }

  /**
   * A directory for folder browsing (Subsonic getMusicDirectory). Takes a folder id (`fo-…`), a music
   * folder id (1, 2 …), an artist id (its albums as sub-folders) or an album id (its songs).
   */
  async directory(id: string, userId?: string): Promise<Directory> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const kind = idKind(id);
    if (kind === 'artist') {
      const artist = this.artist(id);
      const marks = await this.annotations.forItems(userId, 'artist', [id]);
      const albums = view.artistAlbums.get(id) ?? [];
      return {
        id,
        name: artist.name,
        parent: null,
        ...(marks.get(id)?.starred ? { starred: marks.get(id)!.starred! } : {}),
        folders: albums.map((a) => ({ id: a._id, isDir: true, title: a.name, parent: id, coverArt: a._id, album: a.name, artist: a.artist, year: a.year })),
        songs: [],
      };
    }
    if (kind === 'album') {
      const album = this.album(id);
      const marks = await this.annotations.forItems(userId, 'album', [id]);
      const songs = (await this.songs(view.albumTracks.get(id) ?? [], userId)).map((s) => ({ ...s, parent: id }));
      return {
        id,
        name: album.name,
        parent: album.artistIds[0] ?? null,
        ...(marks.get(id)?.starred ? { starred: marks.get(id)!.starred! } : {}),
        folders: [],
        songs,
      };
    }
    let node: FolderNode | undefined;
    if (kind === 'musicFolder') {
      const root = this.rootName(Number(id));
      node = view.rootFolders.find((n) => n.root === root);
    } else if (kind === 'folder') node = view.folders.get(id);
    if (!node) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No folder with id "${id}".`, { id });
    return {
      id: node.id,
      name: node.name,
      parent: node.parentId,
      folders: node.folders.map((f) => ({ id: f.id, isDir: true, title: f.name, parent: node.id, coverArt: this.folderCover(f) })),
      songs: await this.songs(node.tracks, userId),
    };
  }

  private folderCover(node: FolderNode): string | null {
    for (let n: FolderNode | undefined = node; n; n = n.folders[0]) {
      const t = n.tracks[0];
      if (t) return t.albumId;
    }
    return null;
  }

  async genres(sort: GenreSort = 'a-z'): Promise<GenreView[]> {
    await this.catalog.sync();
    if (sort !== 'a-z' && sort !== 'most_albums' && sort !== 'most_tracks') throw invalid('TAGSONIC_ERR_LIBRARY_BAD_SORT', `Unknown genre order "${String(sort)}"; use a-z, most_albums or most_tracks.`);
    const list = this.catalog.view().genresByName.map((g) => ({ name: g.name, albumCount: g.albumCount, songCount: g.songCount }));
    // Stable sorts: equal counts stay in name order.
    if (sort === 'most_albums') return list.sort((a, b) => b.albumCount - a.albumCount);
    if (sort === 'most_tracks') return list.sort((a, b) => b.songCount - a.songCount);
    return list;
  }

  // ---------------------------------------------------------------- lists

  /** Subsonic getAlbumList/getAlbumList2 with every type, plus less_cover, search and byArtist. */
  async albumList(options: AlbumListOptions): Promise<AlbumView[]> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const size = clampSize(options.size, 10);
    const offset = clampOffset(options.offset);
    const root = this.rootName(options.musicFolderId);
    const inRoot = root === undefined ? undefined : (a: AlbumDoc) => a.root === root;
    const userId = options.userId;
    switch (options.type) {
      case 'random':
        return this.albumViews(sample(inRoot ? view.albumsByName.filter(inRoot) : view.albumsByName, size), userId);
      case 'newest':
        return this.albumViews(pageOf(view.albumsNewest, offset, size, inRoot), userId);
      case 'alphabeticalByName':
        return this.albumViews(pageOf(view.albumsByName, offset, size, inRoot), userId);
      case 'alphabeticalByArtist':
        return this.albumViews(pageOf(view.albumsByArtist, offset, size, inRoot), userId);
      case 'less_cover': {
        const missing = (a: AlbumDoc) => a.coverPath === null && a.coverTrackId === null;
        const list = [...view.albumsByName.filter(missing), ...view.albumsByName.filter((a) => !missing(a))];
        return this.albumViews(pageOf(list, offset, size, inRoot), userId);
      }
      case 'search': {
        const terms = searchTerms(options.search);
        return this.albumViews(pageOfMatches(view.albumsByName, view.albumText, terms, offset, size, inRoot), userId);
      }
      case 'byArtist': {
        if (!options.artistId) throw invalid('TAGSONIC_ERR_LIBRARY_MISSING_PARAM', 'byArtist needs an artist id.');
        this.artist(options.artistId);
        return this.albumViews(pageOf(view.artistAlbums.get(options.artistId) ?? [], offset, size, inRoot), userId);
      }
      case 'byGenre': {
        if (!options.genre) throw invalid('TAGSONIC_ERR_LIBRARY_MISSING_PARAM', 'byGenre needs a genre.');
        const list = [...(view.genreAlbums.get(fold(options.genre)) ?? [])];
        return this.albumViews(pageOf(list, offset, size, inRoot), userId);
      }
      case 'byYear': {
        if (options.fromYear === undefined || options.toYear === undefined) {
          throw invalid('TAGSONIC_ERR_LIBRARY_MISSING_PARAM', 'byYear needs fromYear and toYear.');
        }
        const from = Math.min(options.fromYear, options.toYear);
        const to = Math.max(options.fromYear, options.toYear);
        const reverse = options.fromYear > options.toYear;
        const list = view.albumsByArtist
          .filter((a) => a.year !== null && a.year >= from && a.year <= to && (!inRoot || inRoot(a)))
          .sort((a, b) => (reverse ? b.year! - a.year! : a.year! - b.year!));
        return this.albumViews(pageOf(list, offset, size), userId);
      }
      case 'starred':
      case 'highest':
      case 'frequent':
      case 'recent': {
        if (!userId) return [];
        const by = options.type === 'starred' ? 'starred' : options.type === 'highest' ? 'rating' : options.type === 'frequent' ? 'playCount' : 'lastPlayed';
        const albums = await this.annotatedItems(userId, 'album', by, offset, size, (id) => {
          const a = this.catalog.albums.get(id);
          return a && (!inRoot || inRoot(a)) ? a : undefined;
        });
        return this.albumViews(albums, userId);
      }
      default:
        throw invalid('TAGSONIC_ERR_LIBRARY_BAD_LIST_TYPE', `Unknown album list type "${String(options.type)}".`, { type: options.type });
    }
  }

  /**
   * Items a user annotated, in annotation order, skipping ones no longer in the library: reads the
   * annotations in batches until the page is full.
   */
  private async annotatedItems<T>(
    userId: string,
    type: ItemType,
    by: 'starred' | 'rating' | 'playCount' | 'lastPlayed',
    offset: number,
    size: number,
    lookup: (id: string) => T | undefined,
  ): Promise<T[]> {
    const out: T[] = [];
    if (size === 0) return out;
    let skipped = 0;
    const batch = Math.max(100, offset + size);
    for (let from = 0; ; from += batch) {
      const docs = await this.annotations.ordered(userId, type, by, from, batch);
      for (const d of docs) {
        const item = lookup(d.itemId);
        if (item === undefined) continue;
        if (skipped < offset) skipped++;
        else out.push(item);
        if (out.length === size) return out;
      }
      if (docs.length < batch) return out;
    }
  }

  /** Random songs (Subsonic getRandomSongs): size default 200 here (the spec's default), optional genre and years. */
  async randomSongs(options: { size?: number; genre?: string; fromYear?: number; toYear?: number; musicFolderId?: number; userId?: string } = {}): Promise<SongView[]> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const root = this.rootName(options.musicFolderId);
    const base = options.genre ? (view.genreTracks.get(fold(options.genre)) ?? []) : view.tracks;
    const filtered =
      options.fromYear === undefined && options.toYear === undefined && root === undefined
        ? base
        : base.filter(
            (t) =>
              (options.fromYear === undefined || (t.year !== null && t.year >= options.fromYear)) &&
              (options.toYear === undefined || (t.year !== null && t.year <= options.toYear)) &&
              (root === undefined || t.root === root),
          );
    return this.songs(sample(filtered, clampSize(options.size, 200)), options.userId);
  }

  /** Songs of a genre or of an artist (the spec's artist_id), optionally searched; library order. */
  async songsByGenre(options: { genre?: string; artistId?: string; search?: string; count?: number; offset?: number; musicFolderId?: number; userId?: string }): Promise<SongView[]> {
    await this.catalog.sync();
    const view = this.catalog.view();
    if (!options.genre && !options.artistId) throw invalid('TAGSONIC_ERR_LIBRARY_MISSING_PARAM', 'Name a genre or an artist id.');
    const root = this.rootName(options.musicFolderId);
    let list: readonly TrackDoc[];
    if (options.artistId) {
      this.artist(options.artistId);
      list = view.artistTracks.get(options.artistId) ?? [];
    } else list = view.genreTracks.get(fold(options.genre!)) ?? [];
    const genreKey = options.genre ? fold(options.genre) : null;
    const terms = searchTerms(options.search);
    const keep =
      terms.length === 0 && root === undefined && !(options.artistId && genreKey)
        ? undefined
        : (t: TrackDoc) =>
            (terms.length === 0 || matchesTerms(searchText(t.title, t.artist, t.album, t.albumArtist), terms)) &&
            (root === undefined || t.root === root) &&
            (!options.artistId || !genreKey || t.genres.some((g) => fold(g) === genreKey));
    return this.songs(pageOf(list, clampOffset(options.offset), clampSize(options.count, 10), keep), options.userId);
  }

  /** The songs list of the dashboard: recently-added, recently-played, most-played, a-z; optional search. */
  async songList(options: { sort?: 'recently-added' | 'recently-played' | 'most-played' | 'a-z'; search?: string; offset?: number; size?: number; userId?: string }): Promise<SongView[]> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const offset = clampOffset(options.offset);
    const size = clampSize(options.size, 50);
    const sort = options.sort ?? 'recently-added';
    const terms = searchTerms(options.search);
    if (terms.length > 0) {
      if (sort !== 'recently-added') return this.songs(pageOfMatches(view.tracks, view.trackText, terms, offset, size), options.userId);
      const hits = [...matchingEntries(view.trackText, terms)].map((i) => view.tracks[i]!);
      hits.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return this.songs(pageOf(hits, offset, size), options.userId);
    }
    if (sort === 'recently-added') return this.songs(pageOf(view.tracksNewest, offset, size), options.userId);
    if (sort === 'a-z') {
      return this.songs(pageOf(this.catalog.tracksByTitle(), offset, size), options.userId);
    }
    if (!options.userId) return [];
    const by = sort === 'recently-played' ? 'lastPlayed' : 'playCount';
    if (sort !== 'recently-played' && sort !== 'most-played') throw invalid('TAGSONIC_ERR_LIBRARY_BAD_SORT', `Unknown song order "${String(sort)}".`);
    const tracks = await this.annotatedItems(options.userId, 'track', by, offset, size, (id) => this.catalog.tracks.get(id));
    return this.songs(tracks, options.userId);
  }

  /** A user's starred artists, albums and songs, latest star first (each list paged). */
  async starred(options: { userId: string; type?: ItemType; offset?: number; size?: number; musicFolderId?: number }): Promise<SearchResult> {
    await this.catalog.sync();
    const offset = clampOffset(options.offset);
    const size = clampSize(options.size, MAX_PAGE);
    const root = this.rootName(options.musicFolderId);
    const want = (t: ItemType) => options.type === undefined || options.type === t;
    const artists = want('artist') ? await this.annotatedItems(options.userId, 'artist', 'starred', offset, size, (id) => this.catalog.artists.get(id)) : [];
    const albums = want('album')
      ? await this.annotatedItems(options.userId, 'album', 'starred', offset, size, (id) => {
          const a = this.catalog.albums.get(id);
          return a && (root === undefined || a.root === root) ? a : undefined;
        })
      : [];
    const songs = want('track')
      ? await this.annotatedItems(options.userId, 'track', 'starred', offset, size, (id) => {
          const t = this.catalog.tracks.get(id);
          return t && (root === undefined || t.root === root) ? t : undefined;
        })
      : [];
    return {
      artists: await this.artistViews(artists, options.userId),
      albums: await this.albumViews(albums, options.userId),
      songs: await this.songs(songs, options.userId),
    };
  }

  /**
   * search3: artists by name, albums by name or artist, songs by title, artist or album; every word
   * must occur (case-, width- and accent-insensitive substring). An empty query pages everything.
   */
  async search(options: SearchOptions): Promise<SearchResult> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const terms = searchTerms(options.query);
    const root = this.rootName(options.musicFolderId);
    const artistKeep = root === undefined ? undefined : (a: ArtistDoc) => (view.artistTracks.get(a._id) ?? []).some((t) => t.root === root);
    const albumKeep = root === undefined ? undefined : (a: AlbumDoc) => a.root === root;
    const songKeep = root === undefined ? undefined : (t: TrackDoc) => t.root === root;
    const artists = pageOfMatches(view.artistsByName, view.artistText, terms, clampOffset(options.artistOffset), clampSize(options.artistCount, 20), artistKeep);
    const albums = pageOfMatches(view.albumsByName, view.albumText, terms, clampOffset(options.albumOffset), clampSize(options.albumCount, 20), albumKeep);
    const songs = pageOfMatches(view.tracks, view.trackText, terms, clampOffset(options.songOffset), clampSize(options.songCount, 20), songKeep);
    return {
      artists: await this.artistViews(artists, options.userId),
      albums: await this.albumViews(albums, options.userId),
      songs: await this.songs(songs, options.userId),
    };
  }

  /** A song by artist and title (Subsonic getLyrics): exact match after folding, else null. */
  async findSong(artist: string | undefined, title: string | undefined, userId?: string): Promise<SongView | null> {
    await this.catalog.sync();
    const a = artist ? fold(artist) : null;
    const t = title ? fold(title) : null;
    if (!a && !t) return null;
    for (const track of this.catalog.view().tracks) {
      if (t && fold(track.title) !== t) continue;
      if (a && fold(track.artist) !== a && !track.artists.some((x) => fold(x) === a)) continue;
      return (await this.songs([track], userId))[0]!;
    }
    return null;
  }

  // ---------------------------------------------------------------- info, similar, top

  /**
   * The `count` artists most like `id`: Jaccard similarity of their genre sets, then the bigger
   * catalogue first. Ranking every artist took ~4 ms at 100k tracks; the first SIMILAR_KEPT of each
   * ranking are kept with the catalogue's revision.
   */
  private similarArtistDocs(id: string, count: number): ArtistDoc[] {
    this.artist(id);
    const view = this.catalog.view();
    const kept = view.similarArtists.get(id);
    if (kept && (count <= kept.length || kept.length < SIMILAR_KEPT)) return kept.slice(0, count);
    const byArtist = view.artistGenres;
    const genres = byArtist.get(id)!;
    if (genres.size === 0) return [];
    const scored: Array<[ArtistDoc, number]> = [];
    for (const other of this.catalog.artists.values()) {
      const theirs = byArtist.get(other._id)!;
      if (other._id === id || theirs.size === 0) continue;
      let shared = 0;
      for (const g of theirs) if (genres.has(g)) shared++;
      if (shared === 0) continue;
      scored.push([other, shared / (genres.size + theirs.size - shared)]);
    }
    scored.sort((a, b) => b[1] - a[1] || b[0].songCount - a[0].songCount || (a[0]._id < b[0]._id ? -1 : 1));
    const ranked = scored.map(([a]) => a);
    view.similarArtists.set(id, ranked.slice(0, SIMILAR_KEPT));
    return ranked.slice(0, count);
  }

  /** What we know locally about an artist (its biography: set by 刮削艺术家 or the editor); similar artists share its genres. */
  async artistInfo(id: string, options: { count?: number; userId?: string } = {}): Promise<ArtistInfo> {
    await this.catalog.sync();
    const artist = this.artist(id);
    const meta = this.artistMeta ? (await this.artistMeta.synced()).get(id) : undefined;
    return {
      id,
      albumCount: artist.albumCount,
      songCount: artist.songCount,
      coverArt: artist._id,
      genres: artist.genres,
      biography: meta?.description ?? null,
      similarArtists: await this.artistViews(this.similarArtistDocs(id, clampSize(options.count, 20)), options.userId),
    };
  }

  async albumInfo(id: string): Promise<AlbumInfo> {
    await this.catalog.sync();
    if (this.entities) await this.entities.synced();
    const a = this.entities ? this.entities.album(this.album(id)) : this.album(id);
    return {
      id,
      notes: a.comment,
      coverArt: a._id,
      songCount: a.songCount,
      duration: a.duration,
      genres: a.genres,
      artists: a.artistIds.map((x, i) => ({ id: x, name: a.artists[i] ?? '' })),
    };
  }

  /**
   * Songs similar to a song, album or artist: random songs by its artists and by artists sharing
   * their genres, the seed's own songs left out.
   */
  async similarSongs(id: string, options: { count?: number; userId?: string } = {}): Promise<SongView[]> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const kind = idKind(id);
    let artistIds: string[];
    let exclude: Set<string>;
    if (kind === 'track') {
      const t = this.track(id);
      artistIds = [...new Set([...t.artistIds, ...t.albumArtistIds])];
      exclude = new Set([id]);
    } else if (kind === 'album') {
      const a = this.album(id);
      artistIds = a.artistIds;
      exclude = new Set((view.albumTracks.get(id) ?? []).map((t) => t._id));
    } else if (kind === 'artist') {
      this.artist(id);
      artistIds = [id];
      exclude = new Set();
    } else throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song, album or artist with id "${id}".`, { id });
    const pool = new Map<string, TrackDoc>();
    const related = new Set(artistIds.filter((a) => this.catalog.artists.has(a)));
    for (const a of [...related]) for (const s of this.similarArtistDocs(a, 10)) related.add(s._id);
    for (const a of related) for (const t of view.artistTracks.get(a) ?? []) if (!exclude.has(t._id)) pool.set(t._id, t);
    return this.songs(sample([...pool.values()], clampSize(options.count, 50)), options.userId);
  }

  /** An artist's most played songs (over all users), then the rest of its songs, newest albums first. */
  async topSongs(artist: string, options: { count?: number; userId?: string } = {}): Promise<SongView[]> {
    await this.catalog.sync();
    const view = this.catalog.view();
    let doc = idKind(artist) === 'artist' ? this.catalog.artists.get(artist) : undefined;
    if (!doc) {
      const key = fold(artist);
      doc = view.artistsByName.find((a) => fold(a.name) === key);
    }
    if (!doc) return [];
    const tracks = view.artistTracks.get(doc._id) ?? [];
    const stats = await this.annotations.playStats('track', tracks.map((t) => t._id));
    const albumRank = new Map((view.artistAlbums.get(doc._id) ?? []).map((a, i) => [a._id, i]));
    const ordered = [...tracks].sort(
      (a, b) =>
        (stats.get(b._id)?.playCount ?? 0) - (stats.get(a._id)?.playCount ?? 0) ||
        (albumRank.get(a.albumId) ?? 1e9) - (albumRank.get(b.albumId) ?? 1e9) ||
        (a.disc ?? 1) - (b.disc ?? 1) ||
        (a.track ?? 1e9) - (b.track ?? 1e9),
    );
    return this.songs(ordered.slice(0, clampSize(options.count, 50)), options.userId);
  }

  /** The discover page: hot artists and track (plays over all users), random songs, new, recommended and featured albums, recent plays. */
  async discover(options: { userId?: string; randomCount?: number } = {}): Promise<Discover> {
    await this.catalog.sync();
    const view = this.catalog.view();
    const userId = options.userId;

    const hotArtistStats = (await this.annotations.mostPlayed('artist', 0, 40)).filter((s) => this.catalog.artists.has(s.itemId)).slice(0, 10);
    const hotArtistDocs = hotArtistStats.map((s) => this.catalog.artists.get(s.itemId)!);
    const hotArtistViews = await this.artistViews(hotArtistDocs, userId);
    const hotArtists = hotArtistViews.map((v, i) => {
      const latest = (view.artistAlbums.get(v.id) ?? [])[0];
      return { ...v, playCount: hotArtistStats[i]!.playCount, latestAlbum: latest ? { id: latest._id, name: latest.name, year: latest.year } : null };
    });

    const hotTrackStat = (await this.annotations.mostPlayed('track', 0, 20)).find((s) => this.catalog.tracks.has(s.itemId));
    const hotTrack = hotTrackStat
      ? { ...(await this.songs([this.catalog.tracks.get(hotTrackStat.itemId)!], userId))[0]!, totalPlayCount: hotTrackStat.playCount }
      : null;

    const randomSongs = await this.songs(sample(view.tracks, options.randomCount ?? 8), userId);

    const newDocs = view.albumsNewest.slice(0, 12);
    const newViews = await this.albumViews(newDocs, userId);
    const ratings = await this.library.annotations.find({ itemType: 'album', itemId: { $in: newDocs.map((a) => a._id) }, rating: { $gt: 0 } });
    const newAlbums = newViews.map((v) => ({ ...v, ratingCount: ratings.filter((r) => r.itemId === v.id).length }));

    // Recommended: albums sharing genres with what the user plays most, not yet played by them.
    const played = userId ? await this.annotations.ordered(userId, 'album', 'playCount', 0, 50) : [];
    const playedIds = new Set(played.map((p) => p.itemId));
    const likedGenres = new Set(played.flatMap((p) => this.catalog.albums.get(p.itemId)?.genres ?? []).map(fold));
    // When no unplayed album shares those genres: any unplayed album; when all are played: any album.
    const unplayed = (a: AlbumDoc): boolean => !playedIds.has(a._id);
    const sharesGenre = (a: AlbumDoc): boolean => {
      for (const g of view.albumGenres.get(a._id)!) if (likedGenres.has(g)) return true;
      return false;
    };
    let recommendDocs = likedGenres.size ? sampleWhere(view.albumsByName, 10, (a) => unplayed(a) && sharesGenre(a)) : [];
    if (recommendDocs.length === 0) recommendDocs = sampleWhere(view.albumsByName, 10, unplayed);
    if (recommendDocs.length === 0) recommendDocs = sample(view.albumsByName, 10);
    const recommendAlbums = await this.albumViews(recommendDocs, userId);

    const topAlbum = (await this.annotations.mostPlayed('album', 0, 20)).find((s) => this.catalog.albums.has(s.itemId));
    const featuredDoc = topAlbum ? this.catalog.albums.get(topAlbum.itemId)! : sample(view.albumsByName.filter((a) => a.coverPath || a.coverTrackId), 1)[0];
    const featuredAlbum = featuredDoc ? { ...(await this.albumViews([featuredDoc], userId))[0]!, totalPlayCount: topAlbum?.playCount ?? 0 } : null;

    const similarSeed = hotArtistDocs[0]?._id ?? featuredDoc?.artistIds[0];
    const similarArtists = similarSeed && this.catalog.artists.has(similarSeed) ? await this.artistViews(this.similarArtistDocs(similarSeed, 3), userId) : [];

    const recent = userId ? (await this.annotations.recentPlays(userId, 50)).filter((r) => this.catalog.tracks.has(r.trackId)) : [];
    const seen = new Set<string>();
    const distinct = recent.filter((r) => !seen.has(r.trackId) && seen.add(r.trackId)).slice(0, 10);
    const recentViews = await this.songs(distinct.map((r) => this.catalog.tracks.get(r.trackId)!), userId);
    const recentPlays = recentViews.map((s, i) => ({ ...s, playedAt: distinct[i]!.playedAt }));

    return { hotArtists, hotTrack, randomSongs, recommendAlbums, newAlbums, featuredAlbum, similarArtists, recentPlays };
  }

  // ---------------------------------------------------------------- media

  /**
   * Where the picture for a cover-art id is: a track id (its embedded picture, else its album's), an
   * album id (folder image, else the embedded picture of its first track that has one), an artist id
   * (its own picture, saved by 刮削艺术家; else its latest album with a cover) or a folder id. null when there is none.
   */
  async coverArt(id: string): Promise<CoverArt | null> {
    await this.catalog.sync();
    // A picture set on the album, genre or playlist screen (entity-meta.ts) comes first.
    const own = await this.entities?.imageFor(id);
    if (own) return { kind: 'file', path: own };
    const kind = idKind(id);
    if (kind === 'track') {
      const t = this.catalog.tracks.get(id);
      if (!t) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No cover art with id "${id}".`, { id });
      if (t.hasArt) return { kind: 'embedded', path: t.path, trackId: t._id };
      if (t.folderCover) return { kind: 'file', path: t.folderCover };
      return this.albumCover(t.albumId);
    }
    if (kind === 'album') {
      if (!this.catalog.albums.has(id)) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No cover art with id "${id}".`, { id });
      return this.albumCover(id);
    }
    if (kind === 'artist') {
      const a = this.catalog.artists.get(id);
      if (!a) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No cover art with id "${id}".`, { id });
      const image = this.artistMeta?.canServe ? (await this.artistMeta.synced()).get(id)?.image : null;
      if (image) return { kind: 'file', path: this.artistMeta!.imagePath(image) };
      return a.coverAlbumId ? this.albumCover(a.coverAlbumId) : null;
    }
    if (kind === 'folder') {
      const node = this.catalog.folder(id);
      if (!node) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No cover art with id "${id}".`, { id });
      const albumId = this.folderCover(node);
      return albumId ? this.albumCover(albumId) : null;
    }
    throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No cover art with id "${id}".`, { id });
  }

  private albumCover(albumId: string): CoverArt | null {
    const a = this.catalog.albums.get(albumId);
    if (!a) return null;
    if (a.coverPath) return { kind: 'file', path: a.coverPath };
    if (a.coverTrackId) {
      const t = this.catalog.tracks.get(a.coverTrackId);
      if (t) return { kind: 'embedded', path: t.path, trackId: t._id };
    }
    return null;
  }

  /** Absolute path of a song's file (for streaming and downloads). */
  async songPath(id: string): Promise<string> {
    await this.catalog.sync();
    return this.track(id).path;
  }

  /** A song's lyrics: the .lrc sidecar (timed) when there is one, else the embedded text; null when none. */
  async lyrics(id: string): Promise<Lyrics | null> {
    await this.catalog.sync();
    const t = this.track(id);
    if (t.lrcPath) {
      try {
        return parseLrc(await readFile(t.lrcPath, 'utf8'));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    if (!t.hasLyrics) return null;
    // Loaded on demand: the gateway has no other use for the tag engine.
    const { readTags } = await import('../tags/read.ts');
    const { tags } = await readTags(t.path);
    const text = tags.fields.lyrics;
    if (!text) return null;
    const timed = parseLrc(text);
    if (timed.synced) return { ...timed, source: 'embedded' };
    const lines = text.split(/\r?\n/).map((value) => ({ start: null, value }));
    return { source: 'embedded', synced: false, lines, text };
  }
}

const LRC_TIME = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g;

/** Parses LRC text ("[mm:ss.xx]line"); metadata tags ([ar:…]) are dropped, lines sorted by time. */
export function parseLrc(content: string): Lyrics {
  const lines: LyricLine[] = [];
  const plain: string[] = [];
  for (const raw of content.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const stamps = [...raw.matchAll(LRC_TIME)];
    const value = raw.replace(LRC_TIME, '').trim();
    if (stamps.length === 0) {
      if (/^\[[a-z]+:.*\]$/i.test(raw.trim()) || raw.trim() === '') continue;
      plain.push(raw.trim());
      continue;
    }
    for (const m of stamps) {
      const frac = m[3] ? Number(m[3].padEnd(3, '0')) : 0;
      lines.push({ start: Number(m[1]) * 60_000 + Number(m[2]) * 1000 + frac, value });
    }
  }
  if (lines.length === 0) return { source: 'lrc', synced: false, lines: plain.map((value) => ({ start: null, value })), text: plain.join('\n') };
  lines.sort((a, b) => a.start! - b.start!);
  return { source: 'lrc', synced: true, lines, text: lines.map((l) => l.value).join('\n') };
}
