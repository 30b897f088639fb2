/**
 * The lmdb environment behind the embedded store: per collection one documents database (msgpack with
 * shared structures) and one dupsort index database, plus a meta database with the index definitions.
 * Nothing is cached across operations: every read starts from a fresh snapshot and every write runs in
 * an lmdb write transaction, so several processes can share the directory safely.
 */
import { mkdirSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Doc } from '../port.ts';
import { assertCollectionName, storeClosedError, storeUnavailableError } from '../store-errors.ts';
import type { IndexDef } from './index-keys.ts';
import { STRUCTURES_KEY, type CollectionView } from './query-exec.ts';

export interface CollectionMeta {
  indexes: IndexDef[];
}

interface CollectionDbs {
  docs: Database<Doc, string>;
  index: Database<string, Buffer>;
}

/**
 * Documents of 200 bytes and more are stored LZ4-compressed (lmdb's own compression): a track document
 * shrinks by about a quarter — its paths repeat each other — and so do the pages a full catalogue load
 * maps into memory (100k tracks: store 130 → 95 MB, serving RSS −30 MB). Without lmdb's default
 * dictionary: priming LZ4 with it for every value made a scan's commit ~40 % slower for the same size.
 * The dictionary is part of the format: changing it makes compressed documents unreadable. lmdb marks
 * compressed values by their first byte, which a msgpack document never starts with, so stores written
 * before compression was enabled read as they are.
 */
const DOC_COMPRESSION = { threshold: 200, dictionary: Buffer.alloc(0) };

/** A copy of a collection's metadata that shares nothing with it (see `readMeta`). */
const copyMeta = (meta: CollectionMeta): CollectionMeta => ({
  indexes: meta.indexes.map((d) => ({ ...d, keys: d.keys.map(([path, dir]) => [path, dir] as [string, 1 | -1]) })),
});

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export class EmbeddedEngine {
  readonly dir: string;
  private readonly root: RootDatabase;
  private readonly meta: Database<CollectionMeta, string>;
  private readonly dbs = new Map<string, CollectionDbs>();
  /** Decoded metadata by collection, with the stored bytes it was decoded from (see `readMeta`). */
  private readonly metaCache = new Map<string, { bytes: Buffer; meta: CollectionMeta }>();
  private closed = false;

  private constructor(dir: string, root: RootDatabase) {
    this.dir = dir;
    this.root = root;
    this.meta = root.openDB<CollectionMeta, string>({ name: 'tagsonic.meta' });
  }

  static open(dir: string): EmbeddedEngine {
    try {
      mkdirSync(dir, { recursive: true });
      const root = open({
        path: dir,
        maxDbs: 1024,
        // Commit and fsync before a write's promise resolves: acknowledged writes survive a crash.
        overlappingSync: false,
        noSync: false,
      });
      return new EmbeddedEngine(dir, root);
    } catch (e) {
      throw storeUnavailableError(`Cannot open the embedded store in ${dir}: ${(e as Error).message}`, e);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw storeClosedError();
  }

  dbsFor(name: string): CollectionDbs {
    this.assertOpen();
    let dbs = this.dbs.get(name);
    if (!dbs) {
      assertCollectionName(name);
      dbs = {
        docs: this.root.openDB<Doc, string>({ name: `docs:${name}`, sharedStructuresKey: STRUCTURES_KEY, compression: DOC_COMPRESSION }),
        index: this.root.openDB<string, Buffer>({ name: `index:${name}`, dupSort: true, keyEncoding: 'binary', encoding: 'string' }),
      };
      this.dbs.set(name, dbs);
    }
    return dbs;
  }

  /**
   * The collection's metadata as stored now (another process may have changed it), as a copy the
   * caller may change (write operations do, before writing it back). Every store operation asks for
   * it, and decoding it (its record structure is stored with it) cost more than a small write's own
   * work: the stored bytes are compared with those last decoded instead.
   */
  readMeta(name: string): CollectionMeta {
    const bytes = this.meta.getBinary(name);
    if (!bytes) return { indexes: [] };
    let cached = this.metaCache.get(name);
    if (!cached || !cached.bytes.equals(bytes)) {
      cached = { bytes, meta: this.meta.get(name)! };
      this.metaCache.set(name, cached);
    }
    return copyMeta(cached.meta);
  }

  /** Only inside `write`. */
  writeMeta(name: string, meta: CollectionMeta): void {
    if (meta.indexes.length === 0) void this.meta.remove(name);
    else void this.meta.put(name, meta);
  }

  view(name: string): CollectionView & { meta: CollectionMeta } {
    const dbs = this.dbsFor(name);
    const meta = this.readMeta(name);
    return { name, docs: dbs.docs, index: dbs.index, indexes: meta.indexes, meta };
  }

  /**
   * Runs `fn` inside an lmdb write transaction (serialised across processes) and resolves after the
   * transaction is durably committed. A throw from `fn` is reported after the commit of whatever `fn`
   * wrote before throwing, so callers never observe an error before earlier writes are durable.
   */
  async write<R>(fn: () => R): Promise<R> {
    this.assertOpen();
    const outcome = (await this.root.transaction(() => {
      try {
        return { ok: true, value: fn() };
      } catch (error) {
        return { ok: false, error };
      }
    })) as Outcome<R>;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Runs `fn` on a fresh snapshot, so commits of other processes are always seen. */
  read<R>(fn: () => R): R {
    this.assertOpen();
    this.root.resetReadTxn();
    return fn();
  }

  isOpen(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.root.close();
  }
}
