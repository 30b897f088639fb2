/**
 * `caps.files.hashMany` and `caps.files.statMany` (read half): `files.hash` / `files.stat` over a list of paths in
 * one sandbox→host crossing. A duplicate check hashes thousands of small same-size groups; one crossing per file
 * (arguments copied into the host, the result copied back, the invocation's promise settled) cost more than the
 * 128 KiB of edges each file needs read. Every path gets the same confinement check as the one-file calls
 * (MediaRoots.resolve: `..`, look-alikes, symlinks out of the roots), and one refused path refuses the whole call;
 * a file that is not there (gone since it was listed) is `null` in its place, as `files.stat` answers.
 */
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRoots } from '@tagsonic/core/media';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, invalidArgument, limit, optionsOf } from './args.ts';
import { EDGE_BYTES, edgesDigest, fullDigest } from './files-extra.ts';

/** Paths one call may name: a duplicate-check item holds up to a few hundred. */
export const MAX_MANY_PATHS = 1_000;
/** Files read at once by one call: the reads overlap their disk waits; more only queue in libuv's pool. */
const READS_IN_FLIGHT = 4;

export function filesManyCapability(roots: MediaRoots): Record<string, HostFunction> {
  const guarded = (fn: (options: Record<string, unknown>) => Promise<unknown>, what: string): HostFunction =>
    async (args) => {
      try {
        return await fn(optionsOf(args, what));
      } catch (error) {
        throw asPluginError(error);
      }
    };

  /** Every path resolved first (all confined, or the call is refused before any file is read). */
  const resolveAll = async (options: Record<string, unknown>, what: string) => {
    const paths = options.paths;
    if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string')) throw invalidArgument(`${what}: paths must be an array of strings`);
    if (paths.length > MAX_MANY_PATHS) throw limit(`${what}: ${paths.length} paths, more than the ${MAX_MANY_PATHS} one call may name`);
    return Promise.all(paths.map(async (p: string) => {
      const target = await roots.resolve(p, { mustExist: false });
      return { shown: p, real: target.exists ? target.path : null };
    }));
  };

  return {
    hashMany: guarded(async (options) => {
      const range = options.range ?? 'full';
      if (range !== 'full' && range !== 'edges') throw invalidArgument(`files.hashMany: range must be 'full' or 'edges', not ${JSON.stringify(range)}`);
      const targets = await resolveAll(options, 'files.hashMany');
      const results = await mapLimit(targets, READS_IN_FLIGHT, async ({ shown, real }) => {
        if (real === null) return null;
        const info = await lstat(real).catch(gone);
        if (!info) return null;
        if (!info.isFile()) throw invalidArgument(`files.hashMany: only files can be hashed, ${shown} is not a file`);
        const edges = range === 'edges' && info.size > 2 * EDGE_BYTES;
        const sha256 = await (edges ? edgesDigest(real, info.size) : fullDigest(real)).catch(gone);
        return sha256 === null ? null : { path: real, sha256, size: info.size, complete: !edges };
      });
      return { results };
    }, 'files.hashMany'),
    statMany: guarded(async (options) => {
      const targets = await resolveAll(options, 'files.statMany');
      const entries = await mapLimit(targets, READS_IN_FLIGHT * 4, async ({ real }) => {
        if (real === null) return null;
        const info = await stat(real).catch(gone);
        if (!info || !(info.isFile() || info.isDirectory())) return null;
        return { name: path.basename(real), path: real, type: info.isDirectory() ? 'directory' : 'file', size: info.isDirectory() ? 0 : info.size, modifiedAt: info.mtime.toISOString() };
      });
      return { entries };
    }, 'files.statMany'),
  };
}

/** A file removed between the check and the read: `null`, as a file that was never there. */
function gone(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw error;
}

async function mapLimit<T, R>(values: T[], concurrency: number, fn: (value: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(values.length);
  let next = 0;
  const run = async () => {
    while (next < values.length) {
      const i = next++;
      out[i] = await fn(values[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, run));
  return out;
}
