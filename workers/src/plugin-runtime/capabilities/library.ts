/**
 * `caps.library` (grant `library: { access: 'write' }`): puts one audio file into the music collection now —
 * import collection (导入收藏). The file goes through the scanner's own indexing (`Scanner.indexFiles`: the same
 * reader, not-a-song check, side files and track ids as a scan, one library revision derived over the whole
 * library), so Subsonic lists it at once and the next scan sees it as unchanged. There is no second indexer.
 *
 * Items of an import run side by side (several per worker) and every commit re-derives the library, under the
 * one scan lock all processes share: calls that arrive while a commit runs wait and go into the next commit
 * together ({@link createLibraryIndexer}), so a 10/s import makes a few commits a second, not ten lock fights.
 * A dry run (`dryRun: true`) reads and compares only (no lock, no write): what the import would do.
 */
import { TagsonicError } from '@tagsonic/core/errors';
import type { MediaRoots } from '@tagsonic/core/media';
import type { IndexedFile, Scanner } from '../../scanner/scanner.ts';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, denied, invalidArgument, optionsOf, stringField } from './args.ts';

/** The host's side of `caps.library`: the worker's scanner, with concurrent imports batched per process. */
export interface LibraryIndexer {
  /** One file indexed now (or, with `dryRun`, what indexing it would do). `waitMs`: how long a running scan may be waited for. */
  index(path: string, options: { dryRun: boolean; taskId: string | null; waitMs: number }): Promise<IndexedFile>;
}

/** A running scan is waited for at most this long, and never past the invocation's own deadline (less a margin). */
const MAX_LOCK_WAIT_MS = 45_000;
const DEADLINE_MARGIN_MS = 3_000;

interface Waiting {
  path: string;
  taskId: string | null;
  until: number;
  resolve: (file: IndexedFile) => void;
  reject: (error: unknown) => void;
}

/**
 * Batches the real (not dry) index calls of this process: while one `indexFiles` commit runs, the calls that
 * arrive wait, then all go in the next one. A failure of the batch (the lock not won in time) fails its calls.
 */
export function createLibraryIndexer(scanner: Scanner): LibraryIndexer {
  let queue: Waiting[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    try {
      while (queue.length) {
        const batch = queue;
        queue = [];
        const waitMs = Math.max(0, Math.min(...batch.map((w) => w.until)) - Date.now());
        try {
          const results = await scanner.indexFiles(batch.map((w) => w.path), { taskId: batch[0]!.taskId, waitMs });
          const byPath = new Map(results.map((r) => [r.path, r]));
          for (const w of batch) {
            const result = byPath.get(w.path);
            if (result) w.resolve(result);
            else w.reject(new TagsonicError('internal', 'TAGSONIC_ERR_INTERNAL', `${w.path} was not indexed.`));
          }
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      running = false;
    }
  };
  return {
    async index(path, options) {
      if (options.dryRun) {
        const [result] = await scanner.indexFiles([path], { dryRun: true });
        return result!;
      }
      return new Promise<IndexedFile>((resolve, reject) => {
        queue.push({ path, taskId: options.taskId, until: Date.now() + options.waitMs, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}

/** What `library.index` answers (`IndexedFile` without failures: those are thrown with their code and reason). */
type Indexed = Omit<IndexedFile, 'code' | 'message'>;

export function libraryCapability(roots: MediaRoots, indexer: LibraryIndexer | undefined, access: 'write'): Record<string, HostFunction> {
  const index: HostFunction = async (args, call) => {
    if (access !== 'write') throw denied('library.index needs the library write grant');
    const options = optionsOf(args, 'library.index');
    if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean') throw invalidArgument('library.index: dryRun must be true or false');
    try {
      const target = await roots.resolve(stringField(options, 'path', 'library.index'));
      if (!indexer) {
        throw new TagsonicError('unavailable', 'TAGSONIC_ERR_PLUGIN_FAILED', 'library.index: this worker does not keep the music library (it runs no scanner).');
      }
      const waitMs = Math.max(0, Math.min(MAX_LOCK_WAIT_MS, call.deadline - performance.now() - DEADLINE_MARGIN_MS));
      const result = await indexer.index(target.path, { dryRun: options.dryRun === true, taskId: call.task?.taskId ?? null, waitMs });
      if (result.status === 'failed') throw new TagsonicError('invalid', result.code ?? 'TAGSONIC_ERR_LIBRARY_NOT_AUDIO', result.message ?? `${target.path} cannot be read.`);
      const answer: Indexed = { path: result.path, status: result.status, trackId: result.trackId, sameAs: result.sameAs };
      return answer;
    } catch (error) {
      throw asPluginError(error);
    }
  };
  return { index };
}
