/**
 * The library's repositories on the store port: collections, indexes, the revision protocol that lets
 * every process follow catalogue changes, and the scan lock.
 *
 * Revision protocol: a commit (only ever made by the holder of the scan lock) stamps every written
 * document with `rev = state.rev + 1`, records deletions as tombstones with that rev, and only then
 * raises `state.rev`. A reader that sees `state.rev = R` therefore finds every change up to R by
 * querying `rev > lastSeen`.
 */
import type { BulkOperation, Collection, Doc, Store } from '../store/port.ts';
import { newId } from '../ids.ts';
import { STORE_ERRORS } from '../store/store-errors.ts';
import { isTagsonicError } from '../errors/errors.ts';
import {
  LIBRARY_COLLECTIONS as C,
  type AlbumDoc,
  type AnnotationDoc,
  type ArtistDoc,
  type BookmarkDoc,
  type ExcludedFileDoc,
  type GenreDoc,
  type LastScan,
  type LibraryStateDoc,
  type NowPlayingDoc,
  type PlayLogDoc,
  type PlayQueueDoc,
  type PlayStatDoc,
  type ScanFailureDoc,
  type TombstoneDoc,
  type TrackDoc,
} from './model.ts';

const STATE_ID = 'library';
const LOCK_ID = 'scan-lock';
const WRITE_CHUNK = 2000;
/** Tombstones older than this are pruned; a process offline longer reloads the whole catalogue. */
const TOMBSTONE_TTL_MS = 7 * 24 * 3600_000;

/**
 * Raises one of the side revisions in `library_state` (`artistsRev`: artist-meta.ts, `entitiesRev`: entity-meta.ts)
 * that every process's catalogue reads with its own, so their in-memory copies reload.
 */
export async function bumpSideRevision(state: Collection<Doc>, field: 'artistsRev' | 'entitiesRev'): Promise<void> {
  await state.updateOne({ _id: STATE_ID }, { $inc: { [field]: 1 }, $setOnInsert: { rev: 0, prunedRev: 0, lastScan: null } }, { upsert: true });
}

export interface LibraryChanges {
  /** Tracks with ids never stored before (inserted: cheaper than an upsert). */
  insertTracks?: TrackDoc[];
  upsertTracks?: TrackDoc[];
  removeTracks?: string[];
  upsertAlbums?: AlbumDoc[];
  removeAlbums?: string[];
  upsertArtists?: ArtistDoc[];
  removeArtists?: string[];
  upsertGenres?: GenreDoc[];
  removeGenres?: string[];
  lastScan?: LastScan;
}

export interface ScanLockDoc {
  _id: string;
  owner: string;
  taskId: string | null;
  acquiredAt: Date;
  expiresAt: Date;
  /** Files handled so far by the running scan (Subsonic's getScanStatus `count`). */
  progress: number;
  [key: string]: unknown;
}

type AnyLibraryDoc = TrackDoc | AlbumDoc | ArtistDoc | GenreDoc;

export class LibraryStore {
  readonly tracks: Collection<TrackDoc>;
  readonly albums: Collection<AlbumDoc>;
  readonly artists: Collection<ArtistDoc>;
  readonly genres: Collection<GenreDoc>;
  readonly tombstones: Collection<TombstoneDoc>;
  readonly annotations: Collection<AnnotationDoc>;
  readonly playStats: Collection<PlayStatDoc>;
  readonly playLog: Collection<PlayLogDoc>;
  readonly playQueues: Collection<PlayQueueDoc>;
  readonly bookmarks: Collection<BookmarkDoc>;
  readonly nowPlaying: Collection<NowPlayingDoc>;
  readonly failures: Collection<ScanFailureDoc>;
  readonly excluded: Collection<ExcludedFileDoc>;
  private readonly state: Collection<Doc>;

  constructor(store: Store) {
    this.tracks = store.collection<TrackDoc>(C.tracks);
    this.albums = store.collection<AlbumDoc>(C.albums);
    this.artists = store.collection<ArtistDoc>(C.artists);
    this.genres = store.collection<GenreDoc>(C.genres);
    this.tombstones = store.collection<TombstoneDoc>(C.tombstones);
    this.annotations = store.collection<AnnotationDoc>(C.annotations);
    this.playStats = store.collection<PlayStatDoc>(C.playStats);
    this.playLog = store.collection<PlayLogDoc>(C.playLog);
    this.playQueues = store.collection<PlayQueueDoc>(C.playQueues);
    this.bookmarks = store.collection<BookmarkDoc>(C.bookmarks);
    this.nowPlaying = store.collection<NowPlayingDoc>(C.nowPlaying);
    this.failures = store.collection<ScanFailureDoc>(C.failures);
    this.excluded = store.collection<ExcludedFileDoc>(C.excluded);
    this.state = store.collection<Doc>(C.state);
  }

  async init(): Promise<void> {
    await this.tracks.createIndexes([{ keys: { rev: 1 } }]);
    // Tracks are queried through the catalogue, never by path or album in the store: stores made
    // before that knew carry two indexes every scan paid for (a third of a cold scan's commit).
    await this.tracks.dropIndex('path_1');
    await this.tracks.dropIndex('albumId_1');
    await this.albums.createIndexes([{ keys: { rev: 1 } }]);
    await this.artists.createIndexes([{ keys: { rev: 1 } }]);
    await this.genres.createIndexes([{ keys: { rev: 1 } }]);
    await this.tombstones.createIndexes([{ keys: { rev: 1 } }, { keys: { at: 1 } }]);
    await this.annotations.createIndexes([
      { keys: { userId: 1, itemType: 1, starred: -1 } },
      { keys: { userId: 1, itemType: 1, playCount: -1 } },
      { keys: { userId: 1, itemType: 1, lastPlayed: -1 } },
      { keys: { userId: 1, itemType: 1, rating: -1 } },
      { keys: { itemType: 1, itemId: 1 } },
    ]);
    await this.playStats.createIndexes([{ keys: { itemType: 1, playCount: -1 } }, { keys: { itemType: 1, lastPlayed: -1 } }]);
    // userId+_id: the statistics follow each user's new plays by id (core/src/stats/play-cache.ts).
    await this.playLog.createIndexes([{ keys: { userId: 1, playedAt: -1 } }, { keys: { playedAt: -1 } }, { keys: { trackId: 1, playedAt: -1 } }, { keys: { userId: 1, _id: 1 } }]);
    await this.bookmarks.createIndexes([{ keys: { userId: 1, updatedAt: -1 } }]);
    await this.nowPlaying.createIndexes([{ keys: { expiresAt: 1 } }]);
  }

  async readState(): Promise<LibraryStateDoc> {
    const doc = (await this.state.findOne({ _id: STATE_ID })) as LibraryStateDoc | null;
    return doc ?? { _id: STATE_ID, rev: 0, prunedRev: 0, lastScan: null };
  }

  /**
   * Writes a set of catalogue changes as one revision and returns it (the current revision when
   * there was nothing to write). The caller holds the scan lock.
   */
  async commit(changes: LibraryChanges): Promise<number> {
    const state = await this.readState();
    const rev = state.rev + 1;
    const now = new Date();
    let wrote = false;
    const put = async <T extends AnyLibraryDoc>(coll: Collection<T>, docs: T[] | undefined) => {
      if (!docs?.length) return;
      wrote = true;
      for (let i = 0; i < docs.length; i += WRITE_CHUNK) {
        const ops: BulkOperation<T>[] = docs.slice(i, i + WRITE_CHUNK).map((d) => {
          d.rev = rev;
          return { replaceOne: { filter: { _id: d._id }, replacement: d, upsert: true } };
        });
        await coll.bulkWrite(ops);
      }
    };
    const remove = async (coll: Collection<Doc>, kind: TombstoneDoc['kind'], ids: string[] | undefined) => {
      if (!ids?.length) return;
      wrote = true;
      for (let i = 0; i < ids.length; i += WRITE_CHUNK) {
        const chunk = ids.slice(i, i + WRITE_CHUNK);
        await coll.deleteMany({ _id: { $in: chunk } });
        await this.tombstones.insertMany(chunk.map((itemId) => ({ _id: newId(), kind, itemId, rev, at: now })));
      }
    };
    await remove(this.tracks as unknown as Collection<Doc>, 'track', changes.removeTracks);
    if (changes.insertTracks?.length) {
      wrote = true;
      for (let i = 0; i < changes.insertTracks.length; i += WRITE_CHUNK) {
        const chunk = changes.insertTracks.slice(i, i + WRITE_CHUNK);
        for (const d of chunk) d.rev = rev;
        await this.tracks.insertMany(chunk);
      }
    }
    await put(this.tracks, changes.upsertTracks);
    await put(this.albums, changes.upsertAlbums);
    await remove(this.albums as unknown as Collection<Doc>, 'album', changes.removeAlbums);
    await put(this.artists, changes.upsertArtists);
    await remove(this.artists as unknown as Collection<Doc>, 'artist', changes.removeArtists);
    await put(this.genres, changes.upsertGenres);
    await remove(this.genres as unknown as Collection<Doc>, 'genre', changes.removeGenres);
    const set: Record<string, unknown> = {};
    if (wrote) set.rev = rev;
    if (changes.lastScan) set.lastScan = changes.lastScan;
    if (Object.keys(set).length > 0) {
      await this.state.updateOne({ _id: STATE_ID }, { $set: set, $setOnInsert: { prunedRev: 0 } }, { upsert: true });
    }
    if (wrote) await this.pruneTombstones(now);
    return wrote ? rev : state.rev;
  }

  private async pruneTombstones(now: Date): Promise<void> {
    const horizon = new Date(now.getTime() - TOMBSTONE_TTL_MS);
    const old = await this.tombstones.find({ at: { $lt: horizon } }, { sort: { at: -1 }, limit: 1 });
    if (old.length === 0) return;
    await this.state.updateOne({ _id: STATE_ID }, { $max: { prunedRev: old[0]!.rev } });
    await this.tombstones.deleteMany({ at: { $lt: horizon } });
  }

  // ---- scan lock: one scan at a time across processes; expires if its holder dies

  /** Takes the lock for `ttlMs`; false when another live holder has it. */
  async acquireScanLock(owner: string, taskId: string | null, ttlMs: number): Promise<boolean> {
    const now = new Date();
    const fields = { owner, taskId, acquiredAt: now, expiresAt: new Date(now.getTime() + ttlMs), progress: 0 };
    try {
      await this.state.insertOne({ _id: LOCK_ID, ...fields });
      return true;
    } catch (e) {
      if (!isTagsonicError(e) || e.code !== STORE_ERRORS.duplicateKey) throw e;
    }
    // Someone holds or held it: take it over only if it expired (or is already ours).
    const res = await this.state.updateOne({ _id: LOCK_ID, $or: [{ expiresAt: { $lt: now } }, { owner }] }, { $set: fields });
    return res.matchedCount === 1;
  }

  /** Extends a held lock; false when it was lost (expired and taken over). */
  async renewScanLock(owner: string, ttlMs: number, progress: number): Promise<boolean> {
    const res = await this.state.updateOne(
      { _id: LOCK_ID, owner },
      { $set: { expiresAt: new Date(Date.now() + ttlMs), progress } },
    );
    return res.matchedCount === 1;
  }

  async releaseScanLock(owner: string): Promise<void> {
    await this.state.deleteOne({ _id: LOCK_ID, owner });
  }

  /** The live lock, if a scan is running. */
  async scanLock(): Promise<ScanLockDoc | null> {
    const doc = (await this.state.findOne({ _id: LOCK_ID })) as ScanLockDoc | null;
    if (!doc || doc.expiresAt.getTime() < Date.now()) return null;
    return doc;
  }
}
