/**
 * The playlist service: plain and smart playlists per user, entry edits and moves, filter lists
 * ("exclude"), dedupe, and M3U8 import/export. Entries are track ids checked against the catalogue;
 * ids whose files left the library are pruned on the next change, and never shown.
 */
import path from 'node:path';
import { conflict, forbidden, invalid, notFound } from '../errors/errors.ts';
import { ExpiringMap } from '../expiring-map.ts';
import { newId } from '../ids.ts';
import type { Library, SongView, TrackDoc } from '../library/index.ts';
import { fold } from '../library/text.ts';
import type { MediaRoots } from '../media/roots.ts';
import { sanitizeFileName } from '../media/sanitize.ts';
import type { Collection, Store } from '../store/port.ts';
import {
  matchTracks,
  needs,
  orderTracks,
  parseConditions,
  parseLimit,
  parseOrderBy,
  type ConditionContext,
  type ConditionGroups,
} from './conditions.ts';
import { formatM3u8, parseM3u, type M3uEntry } from './m3u.ts';
import { MAX_PLAYLIST_ENTRIES, PLAYLISTS_COLLECTION, type PlaylistDoc, type SmartRule } from './model.ts';

/** Who is asking: the user id and name (playlist owner), and whether they are an admin. */
export interface Actor {
  id: string;
  name: string;
  isAdmin?: boolean;
}

export type PrivacyLevel = 'public' | 'private' | 'exclude';

export interface PlaylistView {
  id: string;
  name: string;
  comment: string;
  owner: string;
  ownerId: string;
  public: boolean;
  songCount: number;
  /** Whole seconds. */
  duration: number;
  created: Date;
  changed: Date;
  /** Cover of the first song, null when empty. */
  coverArt: string | null;
  /** Not the asker's: they may read it but not change it. */
  readonly: boolean;
  isSmart: boolean;
  isDynamic: boolean;
  privacyLevel: PrivacyLevel;
  /** Smart playlists: the rule. */
  smart: SmartRule | null;
}

export interface PlaylistDetail extends PlaylistView {
  songs: SongView[];
}

export interface ImportReport {
  playlist: PlaylistView;
  matched: number;
  /** Entries that name no file of the library, with the reason. */
  unmatched: Array<{ line: number; location: string; reason: string }>;
}

export interface SmartInput {
  name: string;
  /** JSON text or parsed groups (see parseConditions). */
  conditions: unknown;
  limit?: unknown;
  orderBy?: unknown;
  isDynamic?: boolean;
  comment?: string;
  public?: boolean;
}

export const RANDOM_PLAYLIST_ID = 'random';
const DEFAULT_RANDOM_SIZE = 50;
const MAX_NAME = 200;
const MAX_COMMENT = 2000;
const CAS_ATTEMPTS = 8;
/** Lyrics read for "lyrics" conditions, keyed by track id and mtime. */
const LYRICS_CACHE_ENTRIES = 20_000;

const ERR_NOT_FOUND = 'TAGSONIC_ERR_PLAYLIST_NOT_FOUND';
const ERR_NOT_OWNER = 'TAGSONIC_ERR_PLAYLIST_NOT_OWNER';
const ERR_BAD = 'TAGSONIC_ERR_PLAYLIST_INVALID';

interface StoredPlaylist extends PlaylistDoc {
  /** Bumped by every change: writes compare it, so two concurrent edits never lose one. */
  version: number;
}

const seconds = (x: number): number => Math.round(x);

export class Playlists {
  private readonly coll: Collection<StoredPlaylist>;
  private readonly library: Library;
  private readonly roots: MediaRoots;
  private readonly lyricsCache = new Map<string, string>();
  /**
   * Excluded track ids per user, for 2 s (random lists ask on every request): dropped at once on this
   * process's playlist writes, at most 2 s behind another gateway's.
   */
  private readonly excluded = new ExpiringMap<string, Promise<Set<string>>>(2_000, 1_000);

  constructor(deps: { store: Store; library: Library; roots: MediaRoots }) {
    this.coll = deps.store.collection<StoredPlaylist>(PLAYLISTS_COLLECTION);
    this.library = deps.library;
    this.roots = deps.roots;
  }

  async init(): Promise<void> {
    await this.coll.createIndexes([{ keys: { ownerId: 1 } }, { keys: { public: 1 } }]);
  }

  // ---------------------------------------------------------------- reads

  /**
   * Playlists the actor may see: their own and other users' public ones (an admin naming `owner`
   * sees all of that user's). `sort`: recently-added (default) or a-z.
   */
  async list(actor: Actor, options: { owner?: string; sort?: 'recently-added' | 'a-z' } = {}): Promise<PlaylistView[]> {
    let docs: StoredPlaylist[];
    if (options.owner !== undefined && options.owner !== actor.name) {
      if (!actor.isAdmin) throw forbidden(ERR_NOT_OWNER, 'Only an admin may list the playlists of another user.');
      docs = await this.coll.find({ ownerName: options.owner });
    } else {
      docs = await this.coll.find({ $or: [{ ownerId: actor.id }, { public: true }] });
    }
    if (options.sort === 'a-z') docs.sort((a, b) => (fold(a.name) < fold(b.name) ? -1 : fold(a.name) > fold(b.name) ? 1 : 0));
    else docs.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : -1));
    await this.library.catalog.sync();
    await this.library.entities.synced();
    const out: PlaylistView[] = [];
    for (const d of docs) out.push(this.view(d, await this.currentTracks(d), actor));
    return out;
  }

  /** One playlist with its songs (the actor's marks). `random` gives random songs outside the actor's filter lists. */
  async get(id: string, actor: Actor, options: { size?: number } = {}): Promise<PlaylistDetail> {
    if (id === RANDOM_PLAYLIST_ID) return this.random(actor, options.size);
    const doc = await this.readable(id, actor);
    await this.library.catalog.sync();
    await this.library.entities.synced();
    const tracks = await this.currentTracks(doc);
    return { ...this.view(doc, tracks, actor), songs: await this.library.queries.songsByIds(tracks.map((t) => t._id), actor.id) };
  }

  private async random(actor: Actor, size: number | undefined): Promise<PlaylistDetail> {
    await this.library.catalog.sync();
    const n = size === undefined || !Number.isFinite(size) ? DEFAULT_RANDOM_SIZE : Math.max(0, Math.min(500, Math.trunc(size)));
    const excluded = await this.excludedTrackIds(actor.id);
    const pool = this.library.catalog.view().tracks.filter((t) => !excluded.has(t._id));
    const picked = orderTracks([...pool], 'random', { plays: new Map() }).slice(0, n);
    const now = new Date();
    return {
      id: RANDOM_PLAYLIST_ID,
      name: 'Random',
      comment: '',
      owner: actor.name,
      ownerId: actor.id,
      public: false,
      songCount: picked.length,
      duration: seconds(picked.reduce((s, t) => s + t.duration, 0)),
      created: now,
      changed: now,
      coverArt: picked[0] ? coverOf(picked[0]) : null,
      readonly: true,
      isSmart: false,
      isDynamic: true,
      privacyLevel: 'private',
      smart: null,
      songs: await this.library.queries.songsByIds(picked.map((t) => t._id), actor.id),
    };
  }

  /**
   * Track ids on the actor's filter lists (playlists marked "exclude"): random lists and smart
   * playlists leave them out.
   */
  excludedTrackIds(userId: string): Promise<Set<string>> {
    return this.excluded.getOrLoad(userId, () => this.coll.find({ ownerId: userId, exclude: true }).then((docs) => new Set(docs.flatMap((d) => d.trackIds))));
  }

  // ---------------------------------------------------------------- writes

  /** Subsonic createPlaylist (new): a name and songs in order. */
  async create(actor: Actor, input: { name: string; trackIds?: readonly string[]; comment?: string; public?: boolean }): Promise<PlaylistDetail> {
    const name = checkName(input.name);
    const trackIds = await this.checkTracks(input.trackIds ?? []);
    return this.insertNew(actor, { name, comment: input.comment, public: input.public, trackIds, smart: null, isDynamic: false });
  }

  /** Subsonic createPlaylist with playlistId: replaces the songs (and the name when given). */
  async replace(actor: Actor, id: string, input: { name?: string; trackIds: readonly string[] }): Promise<PlaylistDetail> {
    const trackIds = await this.checkTracks(input.trackIds);
    await this.mutate(id, actor, (d) => {
      if (d.smart && d.isDynamic) throw conflict('TAGSONIC_ERR_PLAYLIST_DYNAMIC', 'A dynamic smart playlist is filled by its rule; its songs cannot be set by hand.');
      if (input.name !== undefined && input.name !== '') d.name = checkName(input.name);
      d.trackIds = trackIds;
    });
    return this.get(id, actor);
  }

  /** The spec's smart-playlist form: evaluates the rule now; dynamic ones re-evaluate on every read. */
  async createSmart(actor: Actor, input: SmartInput): Promise<PlaylistDetail> {
    const name = checkName(input.name);
    const rule: SmartRule = { conditions: parseConditions(input.conditions), limit: parseLimit(input.limit), orderBy: parseOrderBy(input.orderBy) };
    await this.library.catalog.sync();
    const tracks = await this.evaluate(rule, actor.id, null);
    return this.insertNew(actor, {
      name,
      comment: input.comment,
      public: input.public,
      trackIds: tracks.map((t) => t._id),
      smart: rule,
      isDynamic: input.isDynamic ?? false,
    });
  }

  /** Stores a new playlist owned by `actor` and returns it as they see it. */
  private async insertNew(
    actor: Actor,
    fields: Pick<StoredPlaylist, 'name' | 'trackIds' | 'smart' | 'isDynamic'> & { comment?: string; public?: boolean },
  ): Promise<PlaylistDetail> {
    const now = new Date();
    const doc: StoredPlaylist = {
      _id: `pl-${newId()}`,
      name: fields.name,
      comment: checkComment(fields.comment ?? ''),
      ownerId: actor.id,
      ownerName: actor.name,
      public: fields.public ?? false,
      trackIds: fields.trackIds,
      smart: fields.smart,
      isDynamic: fields.isDynamic,
      exclude: false,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    await this.coll.insertOne(doc);
    this.excluded.clear();
    return this.get(doc._id, actor);
  }

  /** Subsonic updatePlaylist: name, comment, public, songs to add (appended) and entry indexes to remove. */
  async update(
    actor: Actor,
    id: string,
    input: { name?: string; comment?: string; public?: boolean; add?: readonly string[]; removeIndexes?: readonly number[] },
  ): Promise<void> {
    const add = await this.checkTracks(input.add ?? []);
    const remove = [...new Set(input.removeIndexes ?? [])];
    await this.mutate(id, actor, (d) => {
      if (input.name !== undefined) d.name = checkName(input.name);
      if (input.comment !== undefined) d.comment = checkComment(input.comment);
      if (input.public !== undefined) d.public = input.public;
      if ((add.length || remove.length) && d.smart && d.isDynamic) {
        throw conflict('TAGSONIC_ERR_PLAYLIST_DYNAMIC', 'A dynamic smart playlist is filled by its rule; songs cannot be added or removed by hand.');
      }
      for (const i of remove) {
        if (!Number.isInteger(i) || i < 0 || i >= d.trackIds.length) {
          throw invalid('TAGSONIC_ERR_PLAYLIST_BAD_INDEX', `There is no song at index ${i}; the playlist has ${d.trackIds.length} songs (0-based).`);
        }
      }
      const gone = new Set(remove);
      d.trackIds = d.trackIds.filter((_, i) => !gone.has(i)).concat(add);
      if (d.trackIds.length > MAX_PLAYLIST_ENTRIES) throw invalid('TAGSONIC_ERR_PLAYLIST_TOO_LONG', `A playlist holds at most ${MAX_PLAYLIST_ENTRIES} songs.`);
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const doc = await this.owned(id, actor);
    await this.coll.deleteOne({ _id: doc._id });
    this.excluded.clear();
    // Its own picture (set on the playlist screen) goes with it.
    await this.library.entities.remove('playlist', doc._id);
  }

  /** The spec's updatePlaylistOrder: move one entry from `oldIndex` to `newIndex` (0-based). */
  async move(actor: Actor, id: string, oldIndex: number, newIndex: number): Promise<void> {
    await this.mutate(id, actor, (d) => {
      const n = d.trackIds.length;
      for (const [label, i] of [['oldIndex', oldIndex], ['newIndex', newIndex]] as const) {
        if (!Number.isInteger(i) || i < 0 || i >= n) throw invalid('TAGSONIC_ERR_PLAYLIST_BAD_INDEX', `${label} ${i} is outside the playlist (0–${n - 1}).`);
      }
      const [moved] = d.trackIds.splice(oldIndex, 1);
      d.trackIds.splice(newIndex, 0, moved!);
    });
  }

  /** The spec's updatePlaylistOrder with the track ids: the new order of the same entries. */
  async reorder(actor: Actor, id: string, trackIds: readonly string[]): Promise<void> {
    await this.mutate(id, actor, (d) => {
      const count = (ids: readonly string[]) => {
        const m = new Map<string, number>();
        for (const x of ids) m.set(x, (m.get(x) ?? 0) + 1);
        return m;
      };
      const before = count(d.trackIds);
      const after = count(trackIds);
      const same = before.size === after.size && [...before].every(([k, v]) => after.get(k) === v);
      if (!same) throw invalid('TAGSONIC_ERR_PLAYLIST_BAD_ORDER', 'The new order must list exactly the songs of the playlist, each as often as before.');
      d.trackIds = [...trackIds];
    });
  }

  /** The spec's updatePlaylistProps: `exclude` marks a filter list; `public`/`private`/`normal` unmark it. */
  async setProps(actor: Actor, id: string, props: string): Promise<void> {
    const p = props.trim().toLowerCase();
    if (!['exclude', 'public', 'private', 'normal'].includes(p)) {
      throw invalid('TAGSONIC_ERR_PLAYLIST_BAD_PROPS', `Unknown playlist property "${props}"; use exclude, public, private or normal.`);
    }
    await this.mutate(id, actor, (d) => {
      d.exclude = p === 'exclude';
      if (p === 'public') d.public = true;
      if (p === 'private') d.public = false;
    });
  }

  /**
   * The spec's duplicatePlaylist ("dedupe" in the playlist menu): removes repeated entries — the same
   * track, or the same recording in another file (same title and artist, durations within 2 s). The
   * first occurrence stays. Returns how many entries were removed.
   */
  async dedupe(actor: Actor, id: string): Promise<number> {
    let removed = 0;
    await this.library.catalog.sync();
    const tracks = this.library.catalog.tracks;
    await this.mutate(id, actor, (d) => {
      const seenIds = new Set<string>();
      const seenRecordings = new Map<string, number[]>();
      const kept: string[] = [];
      for (const tid of d.trackIds) {
        if (seenIds.has(tid)) continue;
        const t = tracks.get(tid);
        if (t) {
          const key = `${fold(t.title)}\u0000${fold(t.artist)}`;
          const durations = seenRecordings.get(key) ?? [];
          if (durations.some((x) => Math.abs(x - t.duration) <= 2)) continue;
          durations.push(t.duration);
          seenRecordings.set(key, durations);
        }
        seenIds.add(tid);
        kept.push(tid);
      }
      removed = d.trackIds.length - kept.length;
      d.trackIds = kept;
    });
    return removed;
  }

  // ---------------------------------------------------------------- m3u

  /** The playlist as an M3U8 file (absolute paths, `#EXTINF`), with a safe file name. */
  async exportM3u8(actor: Actor, id: string): Promise<{ fileName: string; text: string }> {
    const doc = await this.readable(id, actor);
    await this.library.catalog.sync();
    const tracks = await this.currentTracks(doc);
    const text = formatM3u8(
      doc.name,
      tracks.map((t) => ({ path: t.path, duration: t.duration, artist: t.artist, title: t.title })),
    );
    return { fileName: `${sanitizeFileName(doc.name)}.m3u8`, text };
  }

  /**
   * Creates a playlist from M3U/M3U8 text. Each entry is resolved through the media roots: absolute
   * paths as they are, relative ones against `baseDir` (the playlist file's folder, when it lives in a
   * root) and then each root; paths from another machine fall back to the library file whose path ends
   * with the most matching folders (only when one file is the single best match).
   */
  async importM3u(actor: Actor, input: { text: string; name?: string; baseDir?: string }): Promise<ImportReport> {
    const parsed = parseM3u(input.text);
    if (parsed.entries.length === 0) throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_EMPTY', 'The playlist file lists no songs.');
    if (parsed.entries.length > MAX_PLAYLIST_ENTRIES) throw invalid('TAGSONIC_ERR_PLAYLIST_TOO_LONG', `A playlist holds at most ${MAX_PLAYLIST_ENTRIES} songs.`);
    await this.library.catalog.sync();
    const byPath = new Map<string, TrackDoc>();
    const byName = new Map<string, TrackDoc[]>();
    for (const t of this.library.catalog.tracks.values()) {
      byPath.set(t.path, t);
      const key = fold(path.basename(t.path));
      const list = byName.get(key);
      if (list) list.push(t);
      else byName.set(key, [t]);
    }
    const trackIds: string[] = [];
    const unmatched: ImportReport['unmatched'] = [];
    for (const e of parsed.entries) {
      const found = e.remote ? null : await this.resolveEntry(e, input.baseDir, byPath, byName);
      if (found) trackIds.push(found._id);
      else unmatched.push({ line: e.line, location: e.location, reason: e.remote ? 'remote URL' : 'no library file at this path' });
    }
    if (trackIds.length === 0) {
      throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_UNMATCHED', `None of the ${parsed.entries.length} entries names a file of the library.`, {
        unmatched: unmatched.slice(0, 50),
      });
    }
    const name = input.name?.trim() || parsed.name || 'Imported playlist';
    const created = await this.create(actor, { name, trackIds });
    const { songs: _songs, ...playlist } = created;
    return { playlist, matched: trackIds.length, unmatched };
  }

  private async resolveEntry(e: M3uEntry, baseDir: string | undefined, byPath: Map<string, TrackDoc>, byName: Map<string, TrackDoc[]>): Promise<TrackDoc | null> {
    const bases = e.location.startsWith('/') ? [undefined] : [...(baseDir ? [baseDir] : []), ...this.roots.roots.map((r) => r.dir)];
    for (const base of bases) {
      try {
        const resolved = await this.roots.resolve(e.location, base === undefined ? {} : { base });
        const t = byPath.get(resolved.path);
        if (t) return t;
      } catch {
        // Outside the roots or missing here: try the next base, then the suffix match.
      }
    }
    const segments = e.location.split('/').filter((s) => s && s !== '.');
    const candidates = byName.get(fold(segments.at(-1) ?? '')) ?? [];
    let best: TrackDoc | null = null;
    let bestScore = 0;
    let tie = false;
    for (const t of candidates) {
      const theirs = t.path.split('/');
      let k = 0;
      while (k < segments.length && k < theirs.length && fold(segments[segments.length - 1 - k]!) === fold(theirs[theirs.length - 1 - k]!)) k++;
      if (k > bestScore) {
        best = t;
        bestScore = k;
        tie = false;
      } else if (k === bestScore) tie = true;
    }
    return best && !tie ? best : null;
  }

  // ---------------------------------------------------------------- internals

  /** Tracks of a playlist now: a dynamic smart playlist is re-evaluated; others drop ids no longer in the library. */
  private async currentTracks(doc: StoredPlaylist): Promise<TrackDoc[]> {
    if (doc.smart && doc.isDynamic) return this.evaluate(doc.smart, doc.ownerId, doc._id);
    const tracks = this.library.catalog.tracks;
    const out: TrackDoc[] = [];
    for (const id of doc.trackIds) {
      const t = tracks.get(id);
      if (t) out.push(t);
    }
    return out;
  }

  /** Runs a rule over the library with the owner's marks, leaving out the owner's filter lists (other than `selfId`). */
  private async evaluate(rule: SmartRule, ownerId: string, selfId: string | null): Promise<TrackDoc[]> {
    const ctx = await this.context(rule.conditions, ownerId);
    const filters = await this.coll.find({ ownerId, exclude: true });
    const excluded = new Set(filters.filter((f) => f._id !== selfId).flatMap((f) => f.trackIds));
    const pool = this.library.catalog.view().tracks.filter((t) => !excluded.has(t._id));
    const matched = await matchTracks(pool, rule.conditions, ctx);
    return orderTracks(matched, rule.orderBy, ctx).slice(0, rule.limit);
  }

  private async context(groups: ConditionGroups, ownerId: string): Promise<ConditionContext> {
    const need = needs(groups);
    const catalog = this.library.catalog;
    const starredTracks = new Set<string>();
    const starredAlbums = new Set<string>();
    const starredArtists = new Set<string>();
    const plays = new Map<string, { count: number; last: Date | null }>();
    if (need.stars || need.plays) {
      const marks = await this.library.store.annotations.find({ userId: ownerId });
      for (const m of marks) {
        if (m.starred) (m.itemType === 'track' ? starredTracks : m.itemType === 'album' ? starredAlbums : starredArtists).add(m.itemId);
        if (m.itemType === 'track' && (m.playCount > 0 || m.lastPlayed)) plays.set(m.itemId, { count: m.playCount, last: m.lastPlayed });
      }
    }
    return {
      now: Date.now(),
      starredTracks,
      starredAlbums,
      starredArtists,
      plays,
      albumHasCover: (id) => {
        const a = catalog.albums.get(id);
        return !!a && (a.coverPath !== null || a.coverTrackId !== null);
      },
      artistHasCover: (id) => catalog.artists.get(id)?.coverAlbumId != null,
      lyrics: (t) => this.lyricsOf(t),
    };
  }

  private async lyricsOf(t: TrackDoc): Promise<string> {
    if (!t.hasLyrics && !t.lrcPath) return '';
    const key = `${t._id}:${t.mtimeMs}:${t.lrcPath ?? ''}`;
    const hit = this.lyricsCache.get(key);
    if (hit !== undefined) return hit;
    let text = '';
    try {
      text = (await this.library.queries.lyrics(t._id))?.text ?? '';
    } catch {
      // An unreadable file has no lyrics as far as a rule is concerned.
    }
    if (this.lyricsCache.size >= LYRICS_CACHE_ENTRIES) this.lyricsCache.delete(this.lyricsCache.keys().next().value!);
    this.lyricsCache.set(key, text);
    return text;
  }

  private view(d: StoredPlaylist, tracks: readonly TrackDoc[], actor: Actor): PlaylistView {
    return {
      id: d._id,
      name: d.name,
      comment: d.comment,
      owner: d.ownerName,
      ownerId: d.ownerId,
      public: d.public,
      songCount: tracks.length,
      duration: seconds(tracks.reduce((s, t) => s + t.duration, 0)),
      created: d.createdAt,
      changed: d.updatedAt,
      // A picture set on the playlist screen (entity-meta.ts) is served under the playlist's own id.
      coverArt: this.library.entities.loadedDoc('playlist', d._id)?.image ? d._id : tracks[0] ? coverOf(tracks[0]) : null,
      readonly: d.ownerId !== actor.id,
      isSmart: d.smart !== null,
      isDynamic: d.smart !== null && d.isDynamic,
      privacyLevel: d.exclude ? 'exclude' : d.public ? 'public' : 'private',
      smart: d.smart,
    };
  }

  private async find(id: string): Promise<StoredPlaylist> {
    const doc = typeof id === 'string' && id.length <= 64 ? await this.coll.findOne({ _id: id }) : null;
    if (!doc) throw notFound(ERR_NOT_FOUND, `No playlist with id "${String(id)}".`, { id });
    return doc;
  }

  /** Own or public; others' private playlists do not exist for the actor (not found, not forbidden). */
  private async readable(id: string, actor: Actor): Promise<StoredPlaylist> {
    const doc = await this.find(id);
    if (doc.ownerId !== actor.id && !doc.public && !actor.isAdmin) throw notFound(ERR_NOT_FOUND, `No playlist with id "${id}".`, { id });
    return doc;
  }

  private async owned(id: string, actor: Actor): Promise<StoredPlaylist> {
    const doc = await this.readable(id, actor);
    if (doc.ownerId !== actor.id) throw forbidden(ERR_NOT_OWNER, `Only ${doc.ownerName} may change the playlist "${doc.name}".`);
    return doc;
  }

  /**
   * Read, change, write back if nobody wrote in between (compare-and-swap on `version`), retried a few
   * times. Ids of songs that left the library are dropped first, so entry indexes match what clients see.
   */
  private async mutate(id: string, actor: Actor, change: (doc: StoredPlaylist) => void): Promise<void> {
    await this.library.catalog.sync();
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const doc = await this.owned(id, actor);
      const version = doc.version;
      const next: StoredPlaylist = { ...doc, trackIds: doc.trackIds.filter((t) => this.library.catalog.tracks.has(t)) };
      change(next);
      next.version = version + 1;
      next.updatedAt = new Date();
      const r = await this.coll.replaceOne({ _id: id, version }, next);
      this.excluded.clear();
      if (r.matchedCount === 1) return;
    }
    throw conflict('TAGSONIC_ERR_PLAYLIST_BUSY', 'The playlist is being changed by someone else; try again.');
  }

  /** Every id must be a song of the library (Subsonic clients send songId for each entry). */
  private async checkTracks(ids: readonly string[]): Promise<string[]> {
    if (ids.length > MAX_PLAYLIST_ENTRIES) throw invalid('TAGSONIC_ERR_PLAYLIST_TOO_LONG', `A playlist holds at most ${MAX_PLAYLIST_ENTRIES} songs.`);
    await this.library.catalog.sync();
    for (const id of ids) {
      if (typeof id !== 'string' || !this.library.catalog.tracks.has(id)) {
        throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song with id "${String(id)}".`, { id });
      }
    }
    return [...ids];
  }
}

const coverOf = (t: TrackDoc): string => (t.hasArt ? t._id : t.albumId);

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw invalid(ERR_BAD, 'A playlist needs a name.');
  const n = name.trim();
  if (n.length > MAX_NAME) throw invalid(ERR_BAD, `A playlist name has at most ${MAX_NAME} characters.`);
  return n;
}

function checkComment(comment: unknown): string {
  if (typeof comment !== 'string') throw invalid(ERR_BAD, 'The comment must be text.');
  if (comment.length > MAX_COMMENT) throw invalid(ERR_BAD, `A playlist comment has at most ${MAX_COMMENT} characters.`);
  return comment;
}
