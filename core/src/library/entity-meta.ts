/**
 * The library's own overlay on albums, artists, genres and playlists: what a user set on the album, artist, genre
 * or playlist screen without writing it into the files (spec doc 2 §7 "Entity edits" without write_metadata) — an
 * album's name, comment and picture, an artist's name, a genre's or playlist's picture. Files are never touched;
 * readers (getAlbum, the album and artist lists, getCoverArt, getGenres, getPlaylist(s)) show the overlay instead
 * of what the tags say. Artist pictures and biographies stay in artist-meta.ts (one place for what 刮削艺术家 sets).
 *
 * Pictures are saved as `<dir>/<kind>-<sha1 of the target 12>-<sha1 of the bytes 12>.<ext>` and served by getCoverArt
 * like any local image. Genres have no id of their own that getCoverArt could take, so a genre with a picture gets
 * the cover id `ge-` + 20 hex of its folded name ({@link genreCoverIdFor}).
 *
 * Like artist-meta, the set is small and held in memory; it reloads when `library_state.entitiesRev` (raised by
 * every write, read by the catalogue with its revision) moves, so a request costs no extra store round trip.
 */
import { hash } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Collection, Doc, Store } from '../store/port.ts';
import type { Catalog, NameOverlay } from './catalog.ts';
import { writePicture } from './picture-files.ts';
import { bumpSideRevision } from './library-store.ts';
import { cleanText, fold, renameArtistIn } from './text.ts';
import { LIBRARY_COLLECTIONS } from './model.ts';
import type { AlbumDoc, ArtistDoc, TrackDoc } from './model.ts';

export const ENTITY_META_COLLECTION = 'entity_meta';
/** Pictures larger than this are refused (the editor's uploads are at most 5 MB). */
export const ENTITY_IMAGE_MAX_BYTES = 8 * 1024 * 1024;
export const ENTITY_TEXT_MAX_CHARS = 20_000;
export const ENTITY_IMAGE_INVALID = 'TAGSONIC_ERR_TAGS_BAD_COVER';
export const ENTITY_STORE_UNAVAILABLE = 'TAGSONIC_ERR_LIBRARY_PICTURE_STORE_UNAVAILABLE';

const GENRE_COVER_ID = /^ge-[0-9a-f]{20}$/;

export type EntityKind = 'album' | 'artist' | 'genre' | 'playlist';

export interface EntityImage {
  file: string;
  mime: string;
  size: number;
  /** Where it was downloaded from, when it came from a URL (provenance only; never served). */
  url: string | null;
}

export interface EntityMetaDoc {
  /** `<kind>:<target id>` (a genre's target id is its name). */
  _id: string;
  kind: EntityKind;
  targetId: string;
  /** The cover id getCoverArt takes for this picture (album / playlist id, `ge-…` of a genre). */
  coverId: string;
  name: string | null;
  comment: string | null;
  image: EntityImage | null;
  by: string;
  updatedAt: Date;
  [key: string]: unknown;
}

/** A change: absent fields are kept; null (or '') clears; `image` bytes are sniffed (JPEG, PNG, WebP or GIF). */
export interface EntityMetaChange {
  name?: string | null;
  comment?: string | null;
  image?: Uint8Array | null;
  imageUrl?: string | null;
  by: string;
}

const digest = (text: string, n: number) => hash('sha1', text).slice(0, n);

/** The cover id of a genre's own picture. */
export const genreCoverIdFor = (name: string): string => `ge-${digest(fold(name), 20)}`;

const coverIdOf = (kind: EntityKind, targetId: string): string => (kind === 'genre' ? genreCoverIdFor(targetId) : targetId);

export class EntityMeta implements NameOverlay {
  private readonly docs: Collection<EntityMetaDoc>;
  private readonly state: Collection<Doc>;
  private readonly catalog: Catalog;
  private readonly dir: string | null;
  private loaded: { byId: Map<string, EntityMetaDoc>; byCover: Map<string, EntityMetaDoc> } | null = null;
  private loadedRev = -1;
  /** The album and artist names of the loaded set, and a counter that moves when they change (the catalogue's orderings follow it). */
  private namesKey = '';
  private namesCount = 0;
  private loading: Promise<NonNullable<EntityMeta['loaded']>> | null = null;
  /**
   * Overlaid copies of catalogue documents, per document and loaded overlay set (a reload makes new copies), so the
   * serializer's per-document cache still works.
   */
  private readonly copies = new WeakMap<object, { set: object; copy: object }>();

  /** `dir`: where pictures are saved; null: this process can read the overlay but not save or serve pictures. */
  constructor(store: Store, catalog: Catalog, dir: string | null) {
    this.catalog = catalog;
    this.dir = dir;
    this.docs = store.collection<EntityMetaDoc>(ENTITY_META_COLLECTION);
    this.state = store.collection<Doc>(LIBRARY_COLLECTIONS.state);
  }

  /** The overlay as of the catalogue's last sync (callers sync first; every query does). */
  async synced(): Promise<NonNullable<EntityMeta['loaded']>> {
    const rev = this.catalog.entitiesRev;
    if (this.loaded && this.loadedRev === rev) return this.loaded;
    this.loading ??= this.docs.find({}).then((docs) => {
      this.loaded = { byId: new Map(docs.map((d) => [d._id, d])), byCover: new Map(docs.filter((d) => d.image).map((d) => [d.coverId, d])) };
      this.loadedRev = rev;
      const names = docs
        .filter((d) => d.name !== null && (d.kind === 'album' || d.kind === 'artist'))
        .map((d) => `${d._id}\u0000${d.name}`)
        .sort()
        .join('\u0001');
      if (names !== this.namesKey) (this.namesKey = names), this.namesCount++;
      return this.loaded;
    }).finally(() => (this.loading = null));
    return this.loading;
  }

  /** NameOverlay: moves when an album's or artist's overlaid name changes; -1 while reloading. */
  get namesVersion(): number {
    return this.loaded ? this.namesCount : -1;
  }

  /** One entity's overlay (after syncing the catalogue), or null. */
  async get(kind: EntityKind, targetId: string): Promise<EntityMetaDoc | null> {
    await this.catalog.sync();
    return (await this.synced()).byId.get(`${kind}:${targetId}`) ?? null;
  }

  /** The overlay as last loaded, without waiting (for synchronous view builders that ran `synced()` first). */
  loadedDoc(kind: EntityKind, targetId: string): EntityMetaDoc | null {
    return this.loaded?.byId.get(`${kind}:${targetId}`) ?? null;
  }

  /** Absolute path of the picture saved for a cover id (album, playlist, `ge-…`), or null. */
  async imageFor(coverId: string): Promise<string | null> {
    if (!this.dir) return null;
    const doc = (await this.synced()).byCover.get(coverId);
    return doc?.image ? path.join(this.dir, doc.image.file) : null;
  }

  /** Whether an id is a genre's cover id. */
  static isGenreCoverId(id: string): boolean {
    return GENRE_COVER_ID.test(id);
  }

  /** An album document with its overlaid name, comment, picture and artist names (the same object when it has none). */
  album(doc: AlbumDoc): AlbumDoc {
    if (!this.loaded?.byId.size) return doc;
    const own = this.loadedDoc('album', doc._id);
    if (!own && !this.renamed(doc.artistIds)) return doc;
    const cover = own?.image && this.dir ? path.join(this.dir, own.image.file) : doc.coverPath;
    return this.copyOf(doc, () => ({
      ...doc,
      name: own?.name ?? doc.name,
      comment: own?.comment ?? doc.comment,
      coverPath: cover,
      artist: this.display(doc.artist, doc.artistIds, doc.artists),
      artists: this.names(doc.artistIds, doc.artists),
    }));
  }

  /** Absolute path of a saved picture. */
  imagePath(image: EntityImage): string {
    return path.join(this.dir ?? '', image.file);
  }

  /** A track document showing its album's and artists' overlaid names (the tags are unchanged). */
  track(doc: TrackDoc): TrackDoc {
    if (!this.loaded?.byId.size) return doc;
    const album = this.loadedDoc('album', doc.albumId)?.name ?? null;
    if (album === null && !this.renamed(doc.artistIds) && !this.renamed(doc.albumArtistIds)) return doc;
    return this.copyOf(doc, () => ({
      ...doc,
      album: album ?? doc.album,
      artist: this.display(doc.artist, doc.artistIds, doc.artists),
      artists: this.names(doc.artistIds, doc.artists),
      albumArtist: this.display(doc.albumArtist, doc.albumArtistIds, doc.albumArtists),
      albumArtists: this.names(doc.albumArtistIds, doc.albumArtists),
    }));
  }

  /** Whether one of these artists has an overlaid name. */
  private renamed(ids: readonly string[]): boolean {
    return ids.some((id) => this.loadedDoc('artist', id)?.name);
  }

  /** The individual names with the overlaid ones. */
  private names(ids: readonly string[], list: readonly string[]): string[] {
    return list.map((n, i) => this.loadedDoc('artist', ids[i] ?? '')?.name ?? n);
  }

  /** A display string ("A/B") with each renamed artist's part replaced. */
  private display(text: string, ids: readonly string[], list: readonly string[]): string {
    let out = text;
    ids.forEach((id, i) => {
      const to = this.loadedDoc('artist', id)?.name;
      if (to && list[i]) out = renameArtistIn(out, list[i]!, to) ?? out;
    });
    return out;
  }

  /** An artist document with its overlaid name. */
  artist(doc: ArtistDoc): ArtistDoc {
    if (!this.loaded?.byId.size) return doc;
    const own = this.loadedDoc('artist', doc._id);
    if (!own || own.name === null) return doc;
    return this.copyOf(doc, () => ({ ...doc, name: own.name! }));
  }

  private copyOf<T extends object>(doc: T, make: () => T): T {
    const set = this.loaded?.byId ?? this.copies;
    const seen = this.copies.get(doc);
    if (seen && seen.set === set) return seen.copy as T;
    const copy = make();
    this.copies.set(doc, { set, copy });
    return copy;
  }

  /**
   * Sets an entity's overlay; the caller has checked that the entity exists. Throws invalid for bytes that are no
   * picture or too large. → the document now stored (null when nothing is left of it).
   */
  async set(kind: EntityKind, targetId: string, change: EntityMetaChange): Promise<EntityMetaDoc | null> {
    const _id = `${kind}:${targetId}`;
    const old = await this.docs.findOne({ _id });
    const image = change.image === undefined ? (old?.image ?? null) : change.image === null ? null : await this.save(kind, targetId, change.image, change.imageUrl ?? null);
    const doc: EntityMetaDoc = {
      _id,
      kind,
      targetId,
      coverId: coverIdOf(kind, targetId),
      name: change.name === undefined ? (old?.name ?? null) : cleanText(change.name, ENTITY_TEXT_MAX_CHARS),
      comment: change.comment === undefined ? (old?.comment ?? null) : cleanText(change.comment, ENTITY_TEXT_MAX_CHARS),
      image,
      by: change.by,
      updatedAt: new Date(),
    };
    const empty = doc.name === null && doc.comment === null && doc.image === null;
    if (empty) await this.docs.deleteOne({ _id });
    else await this.docs.replaceOne({ _id }, doc, { upsert: true });
    await this.bump();
    if (old?.image && old.image.file !== image?.file && this.dir) await unlink(path.join(this.dir, old.image.file)).catch(() => undefined);
    return empty ? null : doc;
  }

  /** Drops an entity's overlay (its album, artist or genre left the library by a delete; a playlist was deleted). */
  async remove(kind: EntityKind, targetId: string): Promise<void> {
    const old = await this.docs.findOne({ _id: `${kind}:${targetId}` });
    if (!old) return;
    await this.docs.deleteOne({ _id: old._id });
    await this.bump();
    if (old.image && this.dir) await unlink(path.join(this.dir, old.image.file)).catch(() => undefined);
  }

  private save(kind: EntityKind, targetId: string, data: Uint8Array, url: string | null): Promise<EntityImage> {
    return writePicture(this.dir, `${kind}-${digest(targetId, 12)}`, data, url, {
      what: 'The picture',
      maxBytes: ENTITY_IMAGE_MAX_BYTES,
      invalidCode: ENTITY_IMAGE_INVALID,
      unavailableCode: ENTITY_STORE_UNAVAILABLE,
      unavailableMessage: 'This process has no folder for library pictures.',
    });
  }

  /** Raises the revision every process's catalogue reads, so their in-memory copies reload. */
  private async bump(): Promise<void> {
    this.loaded = null;
    await bumpSideRevision(this.state, 'entitiesRev');
  }
}
