/**
 * Opens the embedded store (the default driver): documents in lmdb transactions under `dir`, queries,
 * updates and aggregations evaluated with MongoDB semantics in process.
 */
import type { Doc, Store, StoreHealth } from '../port.ts';
import { createAggregationContext, type AggregationHost } from './aggregation.ts';
import { EmbeddedCollectionImpl, type EmbeddedCollection } from './embedded-collection.ts';
import { EmbeddedEngine } from './engine.ts';
import { dropAll } from './write-ops.ts';

export interface EmbeddedStoreOptions {
  /** Directory holding the lmdb files; created when missing. Several processes may open it at once. */
  dir: string;
}

export interface EmbeddedStore extends Store {
  readonly driver: 'embedded';
  collection<T extends Doc = Doc>(name: string): EmbeddedCollection<T>;
}

class EmbeddedStoreImpl implements EmbeddedStore {
  readonly driver = 'embedded' as const;
  private readonly engine: EmbeddedEngine;
  private readonly collections = new Map<string, EmbeddedCollectionImpl<Doc>>();
  private readonly context;
  private readonly host: AggregationHost;

  constructor(engine: EmbeddedEngine) {
    this.engine = engine;
    this.host = { view: (name) => engine.view(name) };
    this.context = createAggregationContext(this.host);
  }

  collection<T extends Doc = Doc>(name: string): EmbeddedCollection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new EmbeddedCollectionImpl<Doc>(this.engine, name, this.host, this.context);
      this.collections.set(name, c);
    }
    return c as unknown as EmbeddedCollection<T>;
  }

  async dropCollection(name: string): Promise<void> {
    this.engine.dbsFor(name);
    await this.engine.write(() => dropAll(this.engine, this.engine.view(name)));
  }

  async health(): Promise<StoreHealth> {
    if (!this.engine.isOpen()) return { ok: false, driver: 'embedded', detail: 'closed' };
    try {
      this.engine.read(() => this.engine.readMeta('health'));
      return { ok: true, driver: 'embedded', detail: this.engine.dir };
    } catch (e) {
      return { ok: false, driver: 'embedded', detail: (e as Error).message };
    }
  }

  async close(): Promise<void> {
    await this.engine.close();
  }
}

export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
  return new EmbeddedStoreImpl(EmbeddedEngine.open(options.dir));
}
