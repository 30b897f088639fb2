/**
 * Shares (Subsonic createShare & co.): a public link to songs, albums or artists, owned by a user,
 * optionally expiring. Stored in the `shares` collection; the items are resolved to songs when read,
 * so a share follows rescans and silently drops songs that left the library.
 */
import { randomBytes } from 'node:crypto';
import { forbidden, invalid, notFound } from '@tagsonic/core/errors';
import { idKind, type Library, type SongView } from '@tagsonic/core/library';
import type { Collection, Store } from '@tagsonic/core/store';

export interface ShareDoc {
  /** Random, unguessable: it is the public link. */
  _id: string;
  userId: string;
  username: string;
  itemIds: string[];
  description: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastVisitedAt: Date | null;
  visitCount: number;
  [key: string]: unknown;
}

const MAX_ITEMS = 100;
const MAX_SONGS = 2000;
const MAX_DESCRIPTION = 1000;

export class ShareStore {
  private readonly shares: Collection<ShareDoc>;
  private readonly library: Library;

  constructor(store: Store, library: Library) {
    this.shares = store.collection<ShareDoc>('shares');
    this.library = library;
  }

  async init(): Promise<void> {
    await this.shares.createIndexes([{ keys: { userId: 1, createdAt: -1 } }]);
  }

  async create(owner: { _id: string; username: string }, input: { itemIds: string[]; description?: string; expiresAt?: Date | null }): Promise<ShareDoc> {
    const itemIds = [...new Set(input.itemIds)];
    if (itemIds.length === 0) throw invalid('TAGSONIC_ERR_SUBSONIC_MISSING_PARAM', 'Name at least one song, album or artist to share.');
    if (itemIds.length > MAX_ITEMS) throw invalid('TAGSONIC_ERR_SHARE_TOO_MANY', `A share holds at most ${MAX_ITEMS} items.`);
    for (const id of itemIds) await this.library.annotations.resolveItem(id);
    const doc: ShareDoc = {
      _id: randomBytes(12).toString('base64url'),
      userId: owner._id,
      username: owner.username,
      itemIds,
      description: checkDescription(input.description ?? ''),
      createdAt: new Date(),
      expiresAt: checkExpiry(input.expiresAt ?? null),
      lastVisitedAt: null,
      visitCount: 0,
    };
    await this.shares.insertOne(doc);
    return doc;
  }

  async list(userId: string): Promise<ShareDoc[]> {
    return this.shares.find({ userId: { $eq: userId } }, { sort: { createdAt: -1 } });
  }

  /** A share its owner (or an administrator) may change. */
  async owned(id: string, user: { _id: string; isAdmin: boolean }): Promise<ShareDoc> {
    const doc = await this.shares.findOne({ _id: { $eq: String(id) } });
    if (!doc) throw notFound('TAGSONIC_ERR_SHARE_NOT_FOUND', `No share with id "${id}".`);
    if (doc.userId !== user._id && !user.isAdmin) throw forbidden('TAGSONIC_ERR_SHARE_NOT_OWNER', 'Only the owner of a share (or an administrator) may change it.');
    return doc;
  }

  async update(doc: ShareDoc, changes: { description?: string; expiresAt?: Date | null }): Promise<void> {
    const set: Record<string, unknown> = {};
    if (changes.description !== undefined) set.description = checkDescription(changes.description);
    if (changes.expiresAt !== undefined) set.expiresAt = checkExpiry(changes.expiresAt);
    if (Object.keys(set).length) await this.shares.updateOne({ _id: doc._id }, { $set: set });
  }

  async delete(doc: ShareDoc): Promise<void> {
    await this.shares.deleteOne({ _id: doc._id });
  }

  /** A share as a visitor sees it: null when unknown; `expired` when past its date. */
  async visit(id: string, count: boolean): Promise<{ doc: ShareDoc; expired: boolean } | null> {
    const doc = await this.shares.findOne({ _id: { $eq: String(id) } });
    if (!doc) return null;
    const expired = doc.expiresAt !== null && doc.expiresAt.getTime() <= Date.now();
    if (!expired && count) await this.shares.updateOne({ _id: doc._id }, { $inc: { visitCount: 1 }, $set: { lastVisitedAt: new Date() } });
    return { doc, expired };
  }

  /** The songs a share holds, in item order, without duplicates. */
  async songs(doc: ShareDoc, userId?: string): Promise<SongView[]> {
    const q = this.library.queries;
    const out = new Map<string, SongView>();
    const add = (list: SongView[]) => {
      for (const s of list) if (out.size < MAX_SONGS && !out.has(s.id)) out.set(s.id, s);
    };
    for (const id of doc.itemIds) {
      const kind = idKind(id);
      try {
        if (kind === 'track') add([await q.song(id, userId)]);
        else if (kind === 'album') add((await q.albumDetail(id, userId)).songs);
        else if (kind === 'artist') {
          // The artist's own songs (not whole compilations it appears on), page by page.
          for (let offset = 0; out.size < MAX_SONGS; offset += 500) {
            const page = await q.songsByGenre({ artistId: id, count: 500, offset, userId });
            add(page);
            if (page.length < 500) break;
          }
        }
      } catch (e) {
        // An item that left the library is skipped; the rest of the share still plays.
        if ((e as { kind?: string }).kind !== 'not_found') throw e;
      }
    }
    return [...out.values()];
  }
}

function checkDescription(d: string): string {
  if (d.length > MAX_DESCRIPTION) throw invalid('TAGSONIC_ERR_SHARE_DESCRIPTION', `A share description is at most ${MAX_DESCRIPTION} characters.`);
  return d;
}

function checkExpiry(at: Date | null): Date | null {
  if (at === null) return null;
  if (Number.isNaN(at.getTime())) throw invalid('TAGSONIC_ERR_SHARE_EXPIRY', 'expires must be milliseconds since 1970.');
  return at;
}
