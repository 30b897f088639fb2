/**
 * Per-user marks and listening: stars, ratings, play counts (per user and over all users), the play
 * log, now-playing entries, play queues and bookmarks. Ids are checked against the catalogue, so a
 * client cannot star something that does not exist.
 */
import { invalid, notFound } from '../errors/errors.ts';
import { newId } from '../ids.ts';
import { ExpiringMap } from '../expiring-map.ts';
import type { Catalog } from './catalog.ts';
import type { LibraryStore } from './library-store.ts';
import type { AnnotationDoc, BookmarkDoc, ItemType, NowPlayingDoc, PlayQueueDoc, PlayStatDoc } from './model.ts';
import { idKind } from './ids.ts';

export type AnnotationOrder = 'starred' | 'playCount' | 'lastPlayed' | 'rating';

export const annotationId = (userId: string, itemType: ItemType, itemId: string): string => `${userId}:${itemType}:${itemId}`;
export const playStatId = (itemType: ItemType, itemId: string): string => `${itemType}:${itemId}`;

/** Ids to star or unstar, Subsonic style: `id` may name anything; `albumId`/`artistId` are explicit. */
export interface StarTargets {
  id?: readonly string[];
  albumId?: readonly string[];
  artistId?: readonly string[];
}

export interface ScrobbleOptions {
  /** true: the track was played (counts it); false: it is playing now. Default true. */
  submission?: boolean;
  /** When it was played; default now. */
  time?: Date;
  /** Client name (Subsonic `c`). */
  client?: string;
}

export interface NowPlayingEntry {
  userId: string;
  trackId: string;
  client: string;
  since: Date;
  /** Whole minutes since it started. */
  minutesAgo: number;
}

/** Now-playing entries outlive the track by this much, so a paused player does not vanish at once. */
const NOW_PLAYING_GRACE_MS = 5 * 60_000;
const MAX_QUEUE = 5000;
/**
 * Nearly every listing shows the caller's stars and ratings: one user's annotations of one item type
 * are read together and kept this long (a store query per listing cost more than the listing). Writes
 * through this object drop them at once; writes by another gateway of a distributed deployment show
 * within this delay.
 */
const MARKS_TTL_MS = 2_000;
const MAX_CACHED_MARKS = 256;

export class Annotations {
  private readonly library: LibraryStore;
  private readonly catalog: Catalog;
  private readonly marks = new ExpiringMap<string, Promise<Map<string, AnnotationDoc>>>(MARKS_TTL_MS, MAX_CACHED_MARKS);

  constructor(library: LibraryStore, catalog: Catalog) {
    this.library = library;
    this.catalog = catalog;
  }

  /** One user's annotations of one type, by item id (cached, see MARKS_TTL_MS). */
  private marksOf(userId: string, itemType: ItemType): Promise<Map<string, AnnotationDoc>> {
    return this.marks.getOrLoad(`${userId}:${itemType}`, () =>
      this.library.annotations.find({ userId, itemType }).then((docs) => new Map(docs.map((d) => [d.itemId, d]))),
    );
  }

  private changed(userId: string, itemType: ItemType): void {
    this.marks.delete(`${userId}:${itemType}`);
  }

  /** The kind of a catalogue item, or a not-found error. */
  async resolveItem(id: string): Promise<ItemType> {
    await this.catalog.sync();
    const kind = idKind(id);
    if (kind === 'track' && this.catalog.tracks.has(id)) return 'track';
    if (kind === 'album' && this.catalog.albums.has(id)) return 'album';
    if (kind === 'artist' && this.catalog.artists.has(id)) return 'artist';
    throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song, album or artist with id "${id}".`, { id });
  }

  private async targets(t: StarTargets): Promise<Array<{ type: ItemType; id: string }>> {
    const out: Array<{ type: ItemType; id: string }> = [];
    for (const id of t.id ?? []) out.push({ type: await this.resolveItem(id), id });
    for (const id of t.albumId ?? []) {
      if ((await this.resolveItem(id)) !== 'album') throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No album with id "${id}".`, { id });
      out.push({ type: 'album', id });
    }
    for (const id of t.artistId ?? []) {
      if ((await this.resolveItem(id)) !== 'artist') throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No artist with id "${id}".`, { id });
      out.push({ type: 'artist', id });
    }
    if (out.length === 0) throw invalid('TAGSONIC_ERR_LIBRARY_NO_ID', 'Name at least one song, album or artist id.');
    return out;
  }

  async star(userId: string, targets: StarTargets, at: Date = new Date()): Promise<void> {
    for (const { type, id } of await this.targets(targets)) {
      // Starring twice keeps the first time (so "starred" lists keep their order).
      const _id = annotationId(userId, type, id);
      const res = await this.library.annotations.updateOne({ _id, starred: null }, { $set: { starred: at, updatedAt: new Date() } });
      this.changed(userId, type);
      if (res.matchedCount === 0 && !(await this.library.annotations.findOne({ _id }))) {
        await this.upsert(userId, type, id, { $set: { starred: at } });
      }
    }
  }

  async unstar(userId: string, targets: StarTargets): Promise<void> {
    for (const { type, id } of await this.targets(targets)) {
      await this.library.annotations.updateOne({ _id: annotationId(userId, type, id) }, { $set: { starred: null, updatedAt: new Date() } });
      this.changed(userId, type);
    }
  }

  /** 1–5 stars; 0 removes the rating. */
  async setRating(userId: string, id: string, rating: number): Promise<void> {
    if (!Number.isInteger(rating) || rating < 0 || rating > 5) {
      throw invalid('TAGSONIC_ERR_LIBRARY_BAD_RATING', 'A rating is a whole number from 0 (none) to 5.', { rating });
    }
    const type = await this.resolveItem(id);
    await this.upsert(userId, type, id, { $set: { rating } });
  }

  /**
   * After a rename written into the files gives an album or artist a new id: every user's marks of the old id (star,
   * rating, plays) and its play statistics are copied to the new one where it has none of its own — so favourites
   * and "most played" survive the rename. Copied, not moved: undoing the rename finds them under the old id.
   */
  async copyMarks(itemType: ItemType, fromId: string, toId: string): Promise<number> {
    if (fromId === toId) return 0;
    let copied = 0;
    for (const doc of await this.library.annotations.find({ itemType, itemId: fromId })) {
      const _id = annotationId(doc.userId, itemType, toId);
      if (await this.library.annotations.findOne({ _id })) continue;
      await this.library.annotations.insertOne({ ...doc, _id, itemId: toId, updatedAt: new Date() });
      this.changed(doc.userId, itemType);
      copied++;
    }
    const stat = await this.library.playStats.findOne({ _id: playStatId(itemType, fromId) });
    if (stat && !(await this.library.playStats.findOne({ _id: playStatId(itemType, toId) }))) {
      await this.library.playStats.insertOne({ ...stat, _id: playStatId(itemType, toId), itemId: toId });
    }
    return copied;
  }

  private async upsert(userId: string, type: ItemType, id: string, update: Record<string, Record<string, unknown>>): Promise<void> {
    const set = { ...(update.$set ?? {}), userId, itemType: type, itemId: id, updatedAt: new Date() };
    const onInsert: Record<string, unknown> = { starred: null, rating: 0, playCount: 0, lastPlayed: null };
    for (const op of Object.values(update)) for (const k of Object.keys(op)) delete onInsert[k];
    await this.library.annotations.updateOne(
      { _id: annotationId(userId, type, id) },
      { ...update, $set: set, ...(Object.keys(onInsert).length ? { $setOnInsert: onInsert } : {}) },
      { upsert: true },
    );
    this.changed(userId, type);
  }

  /**
   * Records a play (submission) or a now-playing notice. A play counts for the track, its album and
   * each of its artists, per user and overall, and is appended to the play log.
   */
  async scrobble(userId: string, trackId: string, options: ScrobbleOptions = {}): Promise<void> {
    await this.catalog.sync();
    const track = this.catalog.tracks.get(trackId);
    if (!track) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song with id "${trackId}".`, { id: trackId });
    const client = options.client ?? '';
    const time = options.time ?? new Date();
    if (options.submission === false) {
      const since = new Date();
      await this.library.nowPlaying.replaceOne(
        { _id: `${userId}:${client}` },
        {
          _id: `${userId}:${client}`,
          userId,
          trackId,
          client,
          since,
          expiresAt: new Date(since.getTime() + track.duration * 1000 + NOW_PLAYING_GRACE_MS),
        },
        { upsert: true },
      );
      return;
    }
    const items: Array<[ItemType, string]> = [['track', trackId], ['album', track.albumId]];
    for (const id of new Set([...track.artistIds, ...track.albumArtistIds])) items.push(['artist', id]);
    for (const [type, id] of items) {
      await this.upsert(userId, type, id, { $inc: { playCount: 1 }, $max: { lastPlayed: time } });
      await this.library.playStats.updateOne(
        { _id: playStatId(type, id) },
        { $inc: { playCount: 1 }, $max: { lastPlayed: time }, $set: { itemType: type, itemId: id } },
        { upsert: true },
      );
    }
    await this.library.playLog.insertOne({
      _id: newId(),
      userId,
      trackId,
      albumId: track.albumId,
      artistIds: [...new Set([...track.artistIds, ...track.albumArtistIds])],
      genres: track.genres,
      duration: track.duration,
      playedAt: time,
      client,
    });
  }

  /** Annotations of one user for the given items (absent = never touched). */
  async forItems(userId: string | undefined, itemType: ItemType, ids: readonly string[]): Promise<Map<string, AnnotationDoc>> {
    const out = new Map<string, AnnotationDoc>();
    if (!userId || ids.length === 0) return out;
    const all = await this.marksOf(userId, itemType);
    for (const id of ids) {
      const d = all.get(id);
      if (d) out.set(id, d);
    }
    return out;
  }

  /**
   * One user's annotated items of a type, best first: starred (latest first), playCount, lastPlayed or
   * rating (highest first). Only items that have the property (starred, played, rated).
   */
  async ordered(userId: string, itemType: ItemType, by: AnnotationOrder, skip: number, limit: number): Promise<AnnotationDoc[]> {
    const range =
      by === 'starred' ? { starred: { $gt: new Date(0) } } : by === 'lastPlayed' ? { lastPlayed: { $gt: new Date(0) } } : { [by]: { $gt: 0 } };
    return this.library.annotations.find({ userId, itemType, ...range }, { sort: { [by]: -1 }, skip, limit });
  }

  /** Play counts over all users for the given items. */
  async playStats(itemType: ItemType, ids: readonly string[]): Promise<Map<string, PlayStatDoc>> {
    const out = new Map<string, PlayStatDoc>();
    if (ids.length === 0) return out;
    const docs = await this.library.playStats.find({ _id: { $in: ids.map((id) => playStatId(itemType, id)) } });
    for (const d of docs) out.set(d.itemId, d);
    return out;
  }

  /** Most played items over all users. */
  async mostPlayed(itemType: ItemType, skip: number, limit: number): Promise<PlayStatDoc[]> {
    return this.library.playStats.find({ itemType, playCount: { $gt: 0 } }, { sort: { playCount: -1 }, skip, limit });
  }

  /** One user's most recent plays (newest first). */
  async recentPlays(userId: string, limit: number): Promise<Array<{ trackId: string; playedAt: Date; client: string }>> {
    const docs = await this.library.playLog.find({ userId }, { sort: { playedAt: -1 }, limit });
    return docs.map((d) => ({ trackId: d.trackId, playedAt: d.playedAt, client: d.client }));
  }

  /** What is playing now, over all users (expired entries are dropped). */
  async nowPlaying(now: Date = new Date()): Promise<NowPlayingEntry[]> {
    await this.library.nowPlaying.deleteMany({ expiresAt: { $lt: now } });
    const docs: NowPlayingDoc[] = await this.library.nowPlaying.find({}, { sort: { since: -1 } });
    return docs.map((d) => ({
      userId: d.userId,
      trackId: d.trackId,
      client: d.client,
      since: d.since,
      minutesAgo: Math.max(0, Math.floor((now.getTime() - d.since.getTime()) / 60_000)),
    }));
  }

  // ---- play queue and bookmarks (Subsonic savePlayQueue / getPlayQueue, bookmarks)

  async playQueue(userId: string): Promise<PlayQueueDoc | null> {
    return this.library.playQueues.findOne({ _id: userId });
  }

  async savePlayQueue(userId: string, input: { trackIds: readonly string[]; currentId?: string | null; position?: number; client?: string }): Promise<void> {
    if (input.trackIds.length > MAX_QUEUE) throw invalid('TAGSONIC_ERR_LIBRARY_QUEUE_TOO_LONG', `A play queue holds at most ${MAX_QUEUE} songs.`);
    await this.catalog.sync();
    for (const id of input.trackIds) {
      if (!this.catalog.tracks.has(id)) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song with id "${id}".`, { id });
    }
    const currentId = input.currentId ?? null;
    if (currentId !== null && !input.trackIds.includes(currentId)) {
      throw invalid('TAGSONIC_ERR_LIBRARY_QUEUE_CURRENT', 'The current song must be one of the queued songs.', { currentId });
    }
    if (input.trackIds.length === 0) {
      await this.library.playQueues.deleteOne({ _id: userId });
      return;
    }
    await this.library.playQueues.replaceOne(
      { _id: userId },
      { _id: userId, trackIds: [...input.trackIds], currentId, position: Math.max(0, Math.trunc(input.position ?? 0)), changedAt: new Date(), changedBy: input.client ?? '' },
      { upsert: true },
    );
  }

  async bookmarks(userId: string): Promise<BookmarkDoc[]> {
    return this.library.bookmarks.find({ userId }, { sort: { updatedAt: -1 } });
  }

  async saveBookmark(userId: string, trackId: string, position: number, comment = ''): Promise<void> {
    await this.catalog.sync();
    if (!this.catalog.tracks.has(trackId)) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song with id "${trackId}".`, { id: trackId });
    if (!Number.isFinite(position) || position < 0) throw invalid('TAGSONIC_ERR_LIBRARY_BAD_POSITION', 'A bookmark position is a number of milliseconds ≥ 0.');
    const now = new Date();
    await this.library.bookmarks.updateOne(
      { _id: `${userId}:${trackId}` },
      { $set: { userId, trackId, position: Math.trunc(position), comment, updatedAt: now }, $setOnInsert: { createdAt: now } },
      { upsert: true },
    );
  }

  async deleteBookmark(userId: string, trackId: string): Promise<void> {
    const res = await this.library.bookmarks.deleteOne({ _id: `${userId}:${trackId}` });
    if (res.deletedCount === 0) throw notFound('TAGSONIC_ERR_LIBRARY_NO_BOOKMARK', `No bookmark on song "${trackId}".`, { id: trackId });
  }
}
