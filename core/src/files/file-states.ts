import path from 'node:path';
import type { Collection, Store } from '../store/port.ts';
import { invalid } from '../errors/errors.ts';

/** A file's or folder's scrape state in the tree: null (not scraped), success (grey) or failed (red). */
export type ScrapeState = 'success' | 'failed' | null;

interface FileStateDoc {
  /** The absolute real path. */
  _id: string;
  /** Its folder, so one query answers a whole listing. */
  dir: string;
  state: 'success' | 'failed';
  updatedAt: Date;
  [key: string]: unknown;
}

/** Scrape states per path (`file_states`), written by scrapes and by "mark folder". */
export class FileStates {
  private readonly docs: Collection<FileStateDoc>;

  constructor(store: Store) {
    this.docs = store.collection<FileStateDoc>('file_states');
  }

  async init(): Promise<void> {
    await this.docs.createIndexes([{ keys: { dir: 1 } }]);
  }

  async set(filePath: string, state: ScrapeState): Promise<void> {
    if (!path.isAbsolute(filePath)) throw invalid('TAGSONIC_ERR_FILES_BAD_PATH', 'File states are kept for absolute paths.');
    if (state === null) {
      await this.docs.deleteOne({ _id: filePath });
      return;
    }
    if (state !== 'success' && state !== 'failed') throw invalid('TAGSONIC_ERR_FILES_BAD_STATE', 'A state is success, failed or null.');
    await this.docs.updateOne({ _id: filePath }, { $set: { dir: path.dirname(filePath), state, updatedAt: new Date() } }, { upsert: true });
  }

  async get(filePath: string): Promise<ScrapeState> {
    return (await this.docs.findOne({ _id: filePath }))?.state ?? null;
  }

  /** States of the entries of one folder, by entry name. */
  async inDir(dir: string): Promise<Map<string, 'success' | 'failed'>> {
    const out = new Map<string, 'success' | 'failed'>();
    for (const doc of await this.docs.find({ dir })) out.set(path.basename(doc._id), doc.state);
    return out;
  }

  /** Forgets the state of a path that was renamed, carrying it to the new name. */
  async move(from: string, to: string): Promise<void> {
    const state = await this.get(from);
    if (state === null) return;
    await this.set(to, state);
    await this.set(from, null);
  }
}
