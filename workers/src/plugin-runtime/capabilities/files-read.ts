/**
 * `caps.files.readBytes` (read half): the bytes of a SMALL file inside the media roots — a CUE sheet, a playlist,
 * a rip log — so a plugin can parse it in any encoding with `caps.text.decode`. Capped at 1 MiB: audio and
 * pictures stay on the host (`ffmpeg`, `hash`, `tags` work on them there); a larger file is refused, not cut.
 * With it, the list forms of `hash` and `stat` (`hashMany`, `statMany`: files-many.ts), also read-only.
 */
import { lstat, readFile } from 'node:fs/promises';
import type { MediaRoots } from '@tagsonic/core/media';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, invalidArgument, limit, optionsOf, stringField } from './args.ts';
import { filesManyCapability } from './files-many.ts';

export const MAX_READ_BYTES = 1024 * 1024;

export function filesReadCapability(roots: MediaRoots): Record<string, HostFunction> {
  return {
    ...filesManyCapability(roots),
    readBytes: async (args) => {
      try {
        const options = optionsOf(args, 'files.readBytes');
        const target = await roots.resolve(stringField(options, 'path', 'files.readBytes'));
        const info = await lstat(target.path);
        if (!info.isFile()) throw invalidArgument(`files.readBytes: ${String(options.path)} is not a file`);
        if (info.size > MAX_READ_BYTES) throw limit(`files.readBytes: ${String(options.path)} has ${info.size} bytes, more than the ${MAX_READ_BYTES} a plugin may read`);
        return { path: target.path, bytes: new Uint8Array(await readFile(target.path)) };
      } catch (error) {
        throw asPluginError(error);
      }
    },
  };
}
