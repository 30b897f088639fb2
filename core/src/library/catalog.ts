/**
 * The in-memory catalogue: every track, album, artist and genre of the library, kept in step with the
 * store through the revision protocol (see LibraryStore), plus the orderings and folded search strings
 * the queries need. The embedded store keeps documents on disk and decodes them per query, and neither
 * driver can do case- and width-insensitive substring search over CJK text through an index, hence this
 * copy. Derived structures are rebuilt lazily, once per revision.
 */
import path from 'node:path';
import { flatCopy } from '../memoize.ts';
import type { Collection } from '../store/port.ts';
import type { LibraryChanges, LibraryStore } from './library-store.ts';
import type { AlbumDoc, ArtistDoc, GenreDoc, TrackDoc } from './model.ts';
import { compareTrackOrder } from './derive.ts';
import { folderIdFor } from './ids.ts';
import { fold, indexLetter, searchFold, sortKey } from './text.ts';
import { buildTextIndex, type TextIndex } from './text-index.ts';

/**
 * Names the library shows instead of what the tags say (entity-meta.ts: an album or artist renamed on its screen
 * without writing the files). The orderings and search strings use them, so a renamed album sorts and is found
 * under the name the user sees.
 */
export interface NameOverlay {
  /** Changes whenever the names it gives change; -1 while it reloads (it then gives the tags' names). */
  readonly namesVersion: number;
  /** Brings it up to `Catalog.entitiesRev` (no store call when it already is). */
  synced(): Promise<unknown>;
  album(doc: AlbumDoc): AlbumDoc;
  artist(doc: ArtistDoc): ArtistDoc;
  track(doc: TrackDoc): TrackDoc;
}

/** A directory holding tracks (or holding such directories), for folder browsing. */
export interface FolderNode {
  id: string;
  /** Absolute path. */
  path: string;
  name: string;
  /** Root name. */
  root: string;
  /** Parent folder id; null for a root. */
  parentId: string | null;
  folders: FolderNode[];
  tracks: TrackDoc[];
}

export interface RootInfo {
  name: string;
  dir: string;
}

interface Derived {
  /** Every track in library order: album artist, album, disc, track. */
  tracks: TrackDoc[];
  /** Folded "title artist album album-artist" of `tracks`, same order. */
  trackText: TextIndex;
  albumTracks: Map<string, TrackDoc[]>;
  artistAlbums: Map<string, AlbumDoc[]>;
  artistTracks: Map<string, TrackDoc[]>;
  albumsByName: AlbumDoc[];
  /** Folded "name artist" of `albumsByName`. */
  albumText: TextIndex;
  albumsByArtist: AlbumDoc[];
  albumsNewest: AlbumDoc[];
  artistsByName: ArtistDoc[];
  /** Folded names of `artistsByName`. */
  artistText: TextIndex;
  /** Index letter per artist id. */
  artistLetters: Map<string, string>;
  /** Folded genres per artist id (similar artists). */
  artistGenres: Map<string, Set<string>>;
  /** Folded genres per album id. */
  albumGenres: Map<string, Set<string>>;
  genreTracks: Map<string, TrackDoc[]>;
  genreAlbums: Map<string, AlbumDoc[]>;
  /** Genres by folded name. */
  genresByName: GenreDoc[];
  folders: Map<string, FolderNode>;
  rootFolders: FolderNode[];
  tracksNewest: TrackDoc[];
  /** Every track by title (the tracks screen's A-Z), sorted on first use: see `tracksByTitle()`. */
  tracksByTitle: TrackDoc[] | null;
  albumKeys: Map<string, string>;
  artistKeys: Map<string, string>;
  /** The artists most like an artist (by shared genres), filled the first time one is asked for. */
  similarArtists: Map<string, ArtistDoc[]>;
}

/**
 * What search matches against: search-folded fields (simplified/traditional Chinese alike, see
 * `searchFold`), separated so a word never spans two of them.
 */
export const searchText = (...fields: string[]): string => searchFold(fields.join('\u0001')).replace(/\u0000/g, ' ');

/** Sort key: the index letter first (so Chinese names sit under their pinyin initial), digits padded for natural order. */
export function orderKey(name: string): string {
  return `${indexLetter(name)}\u0000${sortKey(name).replace(/\d+/g, (d) => d.padStart(10, '0'))}`;
}

const INTERNED_TRACK_FIELDS = ['album', 'albumArtist', 'albumArtistTag', 'artist', 'genre', 'suffix', 'contentType', 'codec', 'root', 'folderId', 'language', 'folderCover', 'composer', 'lyricist', 'albumId', 'comment'] as const;
/**
 * Strings unique to a track: copied flat. The store's decoder hands out slices of one string per
 * document, and keeping a slice of each would keep every document's whole text alive.
 */
const FLAT_TRACK_FIELDS = ['_id', 'path', 'title', 'fp', 'lrcPath'] as const;
const INTERNED_LIST_FIELDS = ['artists', 'artistIds', 'albumArtists', 'albumArtistIds', 'albumArtistsTag', 'genres', 'missing'] as const;
/** Shared and never mutated: the catalogue's documents are read-only. */
const EMPTY_LIST: string[] = [];

export class Catalog {
  readonly tracks = new Map<string, TrackDoc>();
  readonly albums = new Map<string, AlbumDoc>();
  readonly artists = new Map<string, ArtistDoc>();
  readonly genres = new Map<string, GenreDoc>();
  private rev = 0;
  /** `library_state.artistsRev` as last read: artist pictures and biographies (artist-meta.ts) reload when it moves. */
  artistsRev = 0;
  /** `library_state.entitiesRev` as last read: the album/artist/genre/playlist overlay (entity-meta.ts) reloads when it moves. */
  entitiesRev = 0;
  private syncing: Promise<void> | null = null;
  private derived: Derived | null = null;
  /** The overlay's `namesVersion` the derived orderings were built with. */
  private derivedNames = 0;
  private names: NameOverlay | null = null;
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, string[]>();
  private readonly dates = new Map<number, Date>();
  private readonly library: LibraryStore;
  private readonly roots: readonly RootInfo[];

  constructor(library: LibraryStore, roots: readonly RootInfo[]) {
    this.library = library;
    this.roots = roots;
  }

  /** The revision the catalogue reflects. */
  get revision(): number {
    return this.rev;
  }

  get rootInfos(): readonly RootInfo[] {
    return this.roots;
  }

  /** Shows (and orders and searches) these names instead of the tags' from now on. */
  useNames(overlay: NameOverlay): void {
    this.names = overlay;
    this.derived = null;
  }

  /** Brings the catalogue (and the name overlay) up to the store's revision (one round trip when nothing changed). */
  sync(): Promise<void> {
    this.syncing ??= this.doSync()
      .then(async () => {
        if (this.names) await this.names.synced();
      })
      .finally(() => (this.syncing = null));
    return this.syncing;
  }

  private async doSync(): Promise<void> {
    const state = await this.library.readState();
    this.artistsRev = typeof state.artistsRev === 'number' ? state.artistsRev : 0;
    this.entitiesRev = typeof state.entitiesRev === 'number' ? state.entitiesRev : 0;
    if (state.rev === this.rev && this.rev !== 0) return;
    if (this.rev === 0 || state.prunedRev > this.rev) {
      await this.loadAll(state.rev);
      return;
    }
    const since = { rev: { $gt: this.rev } };
    const [tracks, albums, artists, genres, tombstones] = await Promise.all([
      this.library.tracks.find(since),
      this.library.albums.find(since),
      this.library.artists.find(since),
      this.library.genres.find(since),
      this.library.tombstones.find(since, { sort: { rev: 1 } }),
    ]);
    // A deletion and a later re-creation of the same id: the higher revision wins.
    const written = new Map<string, number>();
    for (const t of tracks) this.putTrack(t), written.set(`track:${t._id}`, t.rev);
    for (const a of albums) this.putDerived(this.albums, a), written.set(`album:${a._id}`, a.rev);
    for (const a of artists) this.putDerived(this.artists, a), written.set(`artist:${a._id}`, a.rev);
    for (const g of genres) this.putDerived(this.genres, g), written.set(`genre:${g._id}`, g.rev);
    for (const ts of tombstones) {
      if ((written.get(`${ts.kind}:${ts.itemId}`) ?? -1) > ts.rev) continue;
      const map = ts.kind === 'track' ? this.tracks : ts.kind === 'album' ? this.albums : ts.kind === 'artist' ? this.artists : this.genres;
      map.delete(ts.itemId);
    }
    this.rev = state.rev;
    if (tracks.length + albums.length + artists.length + genres.length + tombstones.length > 0) this.derived = null;
  }

  /**
   * Takes in a commit this process just made, without reading it back from the store. Only when it
   * directly follows what the catalogue holds; otherwise (someone else committed in between) it syncs.
   */
  async applyCommit(changes: LibraryChanges, rev: number): Promise<void> {
    if (rev !== this.rev + 1) return this.sync();
    for (const id of changes.removeTracks ?? []) this.tracks.delete(id);
    for (const id of changes.removeAlbums ?? []) this.albums.delete(id);
    for (const id of changes.removeArtists ?? []) this.artists.delete(id);
    for (const id of changes.removeGenres ?? []) this.genres.delete(id);
    // The committed documents themselves: the committer hands them over and does not change them.
    for (const t of changes.insertTracks ?? []) this.putTrack(t);
    for (const t of changes.upsertTracks ?? []) this.putTrack(t);
    for (const a of changes.upsertAlbums ?? []) this.putDerived(this.albums, a);
    for (const a of changes.upsertArtists ?? []) this.putDerived(this.artists, a);
    for (const g of changes.upsertGenres ?? []) this.putDerived(this.genres, g);
    this.rev = rev;
    this.derived = null;
  }

  /**
   * Loads everything in batches, interning each batch before the next: decoding 100k documents at once
   * would make the heap (and the process's memory, which V8 keeps) several times the catalogue's size.
   * Changes committed meanwhile carry a higher revision than `rev` and arrive with the next sync.
   */
  private async loadAll(rev: number): Promise<void> {
    this.tracks.clear();
    this.strings.clear();
    this.lists.clear();
    this.dates.clear();
    this.albums.clear();
    this.artists.clear();
    this.genres.clear();
    await inBatches(this.library.tracks, (t) => this.putTrack(t));
    await inBatches(this.library.albums, (a) => this.putDerived(this.albums, a));
    await inBatches(this.library.artists, (a) => this.putDerived(this.artists, a));
    await inBatches(this.library.genres, (g) => this.putDerived(this.genres, g));
    this.rev = rev;
    this.derived = null;
  }

  /**
   * Repeated values share one copy: 100k tracks hold few distinct album and artist names, id lists,
   * genre lists, formats and scan times, and the decoder makes a new copy of each for every document.
   */
  private putTrack(t: TrackDoc): void {
    const rec = t as Record<string, unknown>;
    for (const f of FLAT_TRACK_FIELDS) {
      const v = rec[f];
      if (typeof v === 'string') rec[f] = flatCopy(v);
    }
    for (const f of INTERNED_TRACK_FIELDS) {
      const v = rec[f];
      if (typeof v === 'string') rec[f] = this.intern(v);
    }
    for (const f of INTERNED_LIST_FIELDS) {
      const v = rec[f];
      if (Array.isArray(v)) rec[f] = this.internList(v as string[]);
    }
    // The relative path is the tail of the absolute one: a slice shares its characters.
    if (t.path.endsWith(t.relPath)) t.relPath = t.path.slice(t.path.length - t.relPath.length);
    t.createdAt = this.internDate(t.createdAt);
    t.updatedAt = this.internDate(t.updatedAt);
    this.tracks.set(t._id, t);
  }

  private intern(v: string): string {
    const s = this.strings.get(v);
    if (s !== undefined) return s;
    const copy = flatCopy(v);
    this.strings.set(copy, copy);
    return copy;
  }

  /** Album, artist and genre documents: their strings and lists go through the same pools. */
  private putDerived<T extends { _id: string }>(map: Map<string, T>, doc: T): void {
    const rec = doc as Record<string, unknown>;
    for (const [k, v] of Object.entries(rec)) {
      if (typeof v === 'string') rec[k] = this.intern(v);
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) rec[k] = this.internList(v as string[]);
    }
    map.set(doc._id, doc);
  }

  private internList(list: string[]): string[] {
    if (list.length === 0) return EMPTY_LIST;
    const key = list.join('\u0001');
    const found = this.lists.get(key);
    if (found) return found;
    const shared = list.map((x) => this.intern(x));
    this.lists.set(key, shared);
    return shared;
  }

  private internDate(d: Date): Date {
    const found = this.dates.get(d.getTime());
    if (found) return found;
    this.dates.set(d.getTime(), d);
    return d;
  }

  /** Derived orderings and lookups for the current revision. */
  view(): Derived {
    const names = this.names?.namesVersion ?? 0;
    if (this.derived && this.derivedNames !== names) this.derived = null;
    if (!this.derived) {
      this.derivedNames = names;
      this.derived = this.derive();
    }
    return this.derived;
  }

  /**
   * Every track by title in the albums' A-Z order (index letter first, so Chinese titles sit under their pinyin
   * initial; articles ignored; numbers in natural order), sorted once per revision on first use.
   */
  tracksByTitle(): TrackDoc[] {
    const view = this.view();
    if (view.tracksByTitle) return view.tracksByTitle;
    const keys = new Map(view.tracks.map((t) => [t, orderKey(t.title)]));
    return (view.tracksByTitle = [...view.tracks].sort((a, b) => cmp(keys.get(a)!, keys.get(b)!) || cmp(a._id, b._id)));
  }

  private derive(): Derived {
    // The lists hold the catalogue's own documents; keys and search strings come from the names shown.
    const overlay = this.names;
    const shownAlbum = (a: AlbumDoc): AlbumDoc => (overlay ? overlay.album(a) : a);
    const shownArtist = (a: ArtistDoc): ArtistDoc => (overlay ? overlay.artist(a) : a);
    const shownTrack = (t: TrackDoc): TrackDoc => (overlay ? overlay.track(t) : t);
    const albumKeys = new Map<string, string>();
    for (const a of this.albums.values()) albumKeys.set(a._id, orderKey(shownAlbum(a).name));
    const artistKeys = new Map<string, string>();
    for (const a of this.artists.values()) artistKeys.set(a._id, orderKey(shownArtist(a).name));
    const albumArtistKey = new Map<string, string>();
    for (const a of this.albums.values()) albumArtistKey.set(a._id, `${orderKey(shownAlbum(a).artist)}\u0001${albumKeys.get(a._id)}`);

    const albumTracks = new Map<string, TrackDoc[]>();
    const artistTrackSets = new Map<string, TrackDoc[]>();
    const genreTracks = new Map<string, TrackDoc[]>();
    for (const t of this.tracks.values()) {
      push(albumTracks, t.albumId, t);
      const seen = new Set<string>();
      for (const id of t.artistIds) if (!seen.has(id)) seen.add(id), push(artistTrackSets, id, t);
      for (const id of t.albumArtistIds) if (!seen.has(id)) seen.add(id), push(artistTrackSets, id, t);
      for (const g of t.genres) push(genreTracks, fold(g), t);
    }
    for (const list of albumTracks.values()) list.sort(compareTrackOrder);

    const albumsByArtist = [...this.albums.values()].sort((a, b) => cmp(albumArtistKey.get(a._id)!, albumArtistKey.get(b._id)!) || cmp(a._id, b._id));
    // Library order for songs: album artist, album, then disc/track inside the album.
    const tracks: TrackDoc[] = [];
    for (const album of albumsByArtist) {
      for (const t of albumTracks.get(album._id) ?? []) tracks.push(t);
    }
    // Tracks whose album document is missing (should not happen) still appear.
    if (tracks.length !== this.tracks.size) {
      const listed = new Set(tracks);
      for (const t of this.tracks.values()) if (!listed.has(t)) tracks.push(t);
    }
    // The album artist only when it adds something (compilations): most tracks repeat the artist.
    const trackText = buildTextIndex(
      tracks.map((doc) => {
        const t = shownTrack(doc);
        return t.albumArtist === t.artist ? searchText(t.title, t.artist, t.album) : searchText(t.title, t.artist, t.album, t.albumArtist);
      }),
    );

    const artistAlbums = new Map<string, AlbumDoc[]>();
    for (const album of this.albums.values()) {
      const ids = new Set<string>(album.artistIds);
      for (const o of album.otherArtists) ids.add(o.id);
      for (const id of ids) push(artistAlbums, id, album);
    }
    for (const list of artistAlbums.values()) list.sort(byYearDesc);
    const artistTracks = new Map<string, TrackDoc[]>();
    for (const [id, list] of artistTrackSets) artistTracks.set(id, list.sort((a, b) => cmp(albumArtistKey.get(a.albumId) ?? '', albumArtistKey.get(b.albumId) ?? '') || compareTrackOrder(a, b)));

    const genreAlbums = new Map<string, AlbumDoc[]>();
    for (const album of albumsByArtist) for (const g of album.genres) push(genreAlbums, fold(g), album);

    const albumsByName = [...this.albums.values()].sort((a, b) => cmp(albumKeys.get(a._id)!, albumKeys.get(b._id)!) || cmp(a._id, b._id));
    const albumText = buildTextIndex(
      albumsByName.map((doc) => {
        const a = shownAlbum(doc);
        return searchText(a.name, a.artist);
      }),
    );
    const albumsNewest = [...this.albums.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || cmp(albumArtistKey.get(a._id)!, albumArtistKey.get(b._id)!));
    const artistsByName = [...this.artists.values()].sort((a, b) => cmp(artistKeys.get(a._id)!, artistKeys.get(b._id)!) || cmp(a._id, b._id));
    const artistText = buildTextIndex(artistsByName.map((a) => searchText(shownArtist(a).name)));
    const artistLetters = new Map(artistsByName.map((a) => [a._id, indexLetter(shownArtist(a).name)]));
    const artistGenres = new Map(artistsByName.map((a) => [a._id, new Set(a.genres.map(fold))]));
    const albumGenres = new Map(albumsByName.map((a) => [a._id, new Set(a.genres.map(fold))]));
    const tracksNewest = [...tracks].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const genreKeys = new Map([...this.genres.values()].map((g) => [g, fold(g.name)]));
    const genresByName = [...this.genres.values()].sort((a, b) => cmp(genreKeys.get(a)!, genreKeys.get(b)!) || cmp(a._id, b._id));

    const { folders, rootFolders } = this.buildFolders(tracks);
    return {
      tracks,
      trackText,
      albumTracks,
      artistAlbums,
      artistTracks,
      albumsByName,
      albumText,
      albumsByArtist,
      albumsNewest,
      artistsByName,
      artistText,
      artistLetters,
      artistGenres,
      albumGenres,
      genreTracks,
      genreAlbums,
      genresByName,
      folders,
      rootFolders,
      tracksNewest,
      tracksByTitle: null,
      albumKeys,
      artistKeys,
      similarArtists: new Map(),
    };
  }

  private buildFolders(tracks: TrackDoc[]): { folders: Map<string, FolderNode>; rootFolders: FolderNode[] } {
    const folders = new Map<string, FolderNode>();
    const rootFolders: FolderNode[] = this.roots.map((r) => {
      const node: FolderNode = { id: folderIdFor(r.dir), path: r.dir, name: r.name, root: r.name, parentId: null, folders: [], tracks: [] };
      folders.set(node.id, node);
      return node;
    });
    const rootDir = new Map(this.roots.map((r) => [r.name, r.dir]));
    const ensure = (dir: string, root: string): FolderNode => {
      const id = folderIdFor(dir);
      let node = folders.get(id);
      if (node) return node;
      const parentDir = path.dirname(dir);
      const top = rootDir.get(root);
      const parent = top === undefined || dir === top || parentDir === dir ? null : ensure(parentDir, root);
      node = { id, path: dir, name: path.basename(dir), root, parentId: parent?.id ?? null, folders: [], tracks: [] };
      folders.set(id, node);
      parent?.folders.push(node);
      return node;
    };
    for (const t of tracks) ensure(path.dirname(t.path), t.root).tracks.push(t);
    for (const node of folders.values()) {
      node.folders.sort((a, b) => cmp(orderKey(a.name), orderKey(b.name)));
      node.tracks.sort(compareTrackOrder);
    }
    return { folders, rootFolders };
  }

  /** Folder id → node; builds the tree on first use. */
  folder(id: string): FolderNode | undefined {
    return this.view().folders.get(id);
  }
}

const LOAD_BATCH = 2000;

async function inBatches<T extends { _id: string }>(coll: Collection<T>, each: (doc: T) => void): Promise<void> {
  let last: string | null = null;
  for (;;) {
    const batch: T[] = await coll.find(last === null ? {} : { _id: { $gt: last } }, { sort: { _id: 1 }, limit: LOAD_BATCH });
    for (const doc of batch) each(doc);
    if (batch.length < LOAD_BATCH) return;
    last = batch[batch.length - 1]!._id;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Newest first; undated albums last, then by name. */
const byYearDesc = (a: AlbumDoc, b: AlbumDoc): number =>
  (b.year ?? -1) - (a.year ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || cmp(a._id, b._id);
