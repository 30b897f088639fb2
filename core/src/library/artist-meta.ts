/**
 * What Tagsonic knows about an artist beyond its tracks: a picture and a biography, set by the 刮削艺术家 batch
 * action (plugins/auto-artist) and later by the editor's artist form. The picture's bytes are saved under the data
 * directory (`<data>/artists/<artist id>-<digest>.<ext>`) and served by getCoverArt like any local image: a
 * remote URL never reaches a client. Each document keeps the value it replaced, so a task that set it can be
 * undone (undo_task → {@link ArtistMeta.undoTask}).
 *
 * Readers (getCoverArt, getArtistInfo) are answered from memory: the set is small (one document per artist with
 * a picture or text) and is reloaded only when `library_state.artistsRev` moved, which the catalogue reads with
 * the revision it reads for every query anyway — no store round trip of its own per request, in any process.
 */
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { invalid, notFound } from '../errors/errors.ts';
import type { Collection, Doc, Store } from '../store/port.ts';
import type { Catalog } from './catalog.ts';
import { writePicture } from './picture-files.ts';
import { idKind } from './ids.ts';
import { bumpSideRevision } from './library-store.ts';
import { LIBRARY_COLLECTIONS } from './model.ts';
import { cleanText } from './text.ts';

export const ARTIST_META_COLLECTION = 'artist_meta';
/** A picture larger than this is refused (a source's full-size portrait is well under 1 MiB). */
export const ARTIST_IMAGE_MAX_BYTES = 8 * 1024 * 1024;
/** Biographies longer than this are cut (Kuwo's longest run to a few thousand characters). */
export const ARTIST_DESCRIPTION_MAX_CHARS = 20_000;

export const ARTIST_IMAGE_INVALID = 'TAGSONIC_ERR_LIBRARY_ARTIST_IMAGE_INVALID';
export const ARTIST_STORE_UNAVAILABLE = 'TAGSONIC_ERR_LIBRARY_ARTIST_STORE_UNAVAILABLE';


/** A saved picture: its file name inside the artist image folder. */
export interface ArtistImage {
  file: string;
  mime: string;
  size: number;
  /** Where it was downloaded from (provenance: a later run sees it has this picture already); never served. */
  url: string | null;
}

/** One value of an artist's extra data (what is shown now, or what it replaced). */
export interface ArtistMetaValue {
  image: ArtistImage | null;
  description: string | null;
  /** Where it came from: a tag source id (`kuwo`), or `user`. */
  source: string | null;
  updatedAt: Date | null;
  /** The task that set it (its undo puts `previous` back). */
  taskId: string | null;
}

export interface ArtistMetaDoc extends ArtistMetaValue {
  /** The artist id (`ar-…`). */
  _id: string;
  name: string;
  previous: ArtistMetaValue | null;
  [key: string]: unknown;
}

/** A change: `image` bytes (sniffed: JPEG, PNG, WebP or GIF) or null to remove; absent fields are kept. */
export interface ArtistMetaChange {
  name: string;
  image?: Uint8Array | null;
  /** Where `image` was downloaded from. */
  imageUrl?: string | null;
  description?: string | null;
  source: string;
  taskId?: string | null;
}

const EMPTY: ArtistMetaValue = { image: null, description: null, source: null, updatedAt: null, taskId: null };

export class ArtistMeta {
  private readonly docs: Collection<ArtistMetaDoc>;
  private readonly state: Collection<Doc>;
  private readonly catalog: Catalog;
  private readonly dir: string | null;
  private loaded: Map<string, ArtistMetaDoc> | null = null;
  private loadedRev = -1;
  private loading: Promise<Map<string, ArtistMetaDoc>> | null = null;

  /** `dir`: where pictures are saved (`<data>/artists`); null: this process can read but not save pictures. */
  constructor(store: Store, catalog: Catalog, dir: string | null) {
    this.catalog = catalog;
    this.dir = dir;
    this.docs = store.collection<ArtistMetaDoc>(ARTIST_META_COLLECTION);
    this.state = store.collection<Doc>(LIBRARY_COLLECTIONS.state);
  }

  /** The artist's extra data after syncing the catalogue, or null when it has none. */
  async get(artistId: string): Promise<ArtistMetaDoc | null> {
    await this.catalog.sync();
    return (await this.synced()).get(artistId) ?? null;
  }

  /** All artists' extra data, by artist id; the caller has synced the catalogue (queries do, first thing). */
  async synced(): Promise<ReadonlyMap<string, ArtistMetaDoc>> {
    const rev = this.catalog.artistsRev;
    if (this.loaded && this.loadedRev === rev) return this.loaded;
    this.loading ??= this.docs.find({}).then((docs) => {
      this.loaded = new Map(docs.map((d) => [d._id, d]));
      this.loadedRev = rev;
      return this.loaded;
    }).finally(() => (this.loading = null));
    return this.loading;
  }

  /** The library's name of an artist id, or null when the library has no such artist. */
  async artistName(artistId: string): Promise<string | null> {
    await this.catalog.sync();
    return this.catalog.artists.get(artistId)?.name ?? null;
  }

  /** Absolute path of a saved picture. */
  imagePath(image: ArtistImage): string {
    return path.join(this.dir ?? '', image.file);
  }

  /** Whether a picture can be served from this process (the folder is known). */
  get canServe(): boolean {
    return this.dir !== null;
  }

  /**
   * Sets an artist's picture and/or biography; the value it replaces is kept as `previous` (for undo). Throws
   * not_found for an artist the library does not have, invalid for bytes that are no picture or too large.
   */
  async set(artistId: string, change: ArtistMetaChange): Promise<{ before: ArtistMetaValue; after: ArtistMetaValue }> {
    if (idKind(artistId) !== 'artist') throw invalid('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `"${artistId}" is not an artist id.`, { id: artistId });
    await this.catalog.sync();
    if (!this.catalog.artists.has(artistId)) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No artist with id "${artistId}".`, { id: artistId });
    const old = await this.docs.findOne({ _id: artistId });
    const before = old ? valueOf(old) : EMPTY;
    const after: ArtistMetaValue = {
      image: change.image === undefined ? before.image : change.image === null ? null : await this.save(artistId, change.image, change.imageUrl ?? null),
      description: change.description === undefined ? before.description : cleanText(change.description, ARTIST_DESCRIPTION_MAX_CHARS),
      source: change.source,
      updatedAt: new Date(),
      taskId: change.taskId ?? null,
    };
    const doc: ArtistMetaDoc = { _id: artistId, name: change.name, ...after, previous: before.updatedAt ? before : null };
    await this.docs.replaceOne({ _id: artistId }, doc, { upsert: true });
    await this.bump();
    // The picture the old `previous` held is no longer reachable by any undo.
    await this.removeUnused(old?.previous?.image ?? null, doc);
    return { before, after };
  }

  /**
   * Puts back what a task replaced, on every artist whose current value that task set (a later change by someone
   * else is left alone). → the names of the artists restored.
   */
  async undoTask(taskId: string): Promise<string[]> {
    const docs = await this.docs.find({ taskId });
    const restored: string[] = [];
    for (const doc of docs) {
      const back = doc.previous ?? EMPTY;
      const next: ArtistMetaDoc = { _id: doc._id, name: doc.name, ...back, previous: null };
      if (back.updatedAt) await this.docs.replaceOne({ _id: doc._id, taskId }, next);
      else await this.docs.deleteOne({ _id: doc._id, taskId });
      await this.removeUnused(doc.image, next);
      restored.push(doc.name);
    }
    if (docs.length > 0) await this.bump();
    return restored;
  }

  private save(artistId: string, data: Uint8Array, url: string | null): Promise<ArtistImage> {
    return writePicture(this.dir, artistId, data, url, {
      what: 'The artist picture',
      maxBytes: ARTIST_IMAGE_MAX_BYTES,
      invalidCode: ARTIST_IMAGE_INVALID,
      unavailableCode: ARTIST_STORE_UNAVAILABLE,
      unavailableMessage: 'This process has no folder for artist pictures.',
    });
  }

  private async removeUnused(image: ArtistImage | null, doc: ArtistMetaDoc): Promise<void> {
    if (!image || !this.dir) return;
    if (image.file === doc.image?.file || image.file === doc.previous?.image?.file) return;
    await unlink(path.join(this.dir, image.file)).catch(() => undefined);
  }

  /** Raises the revision every process's catalogue reads, so their in-memory copies reload. */
  private async bump(): Promise<void> {
    this.loaded = null;
    await bumpSideRevision(this.state, 'artistsRev');
  }
}

function valueOf(doc: ArtistMetaValue): ArtistMetaValue {
  return { image: doc.image ?? null, description: doc.description ?? null, source: doc.source ?? null, updatedAt: doc.updatedAt ?? null, taskId: doc.taskId ?? null };
}
