/**
 * `caps.files.writeStrm` (write half): the .strm file of one audio file, for the generate-strm action. The host
 * writes it because both its place and its content are the host's business: the place is the audio file's path
 * relative to its media folder, under `dir` (or beside the audio file), with `.strm` for its extension, so a
 * whole library keeps its shape; the content is the audio file's full path (players that see the same folders),
 * or with `sign` an HTTP link to this server's signed stream of exactly that file (core/src/strm) for players
 * elsewhere. Only `.strm` files are ever written or replaced, never a hidden name, always inside the media roots;
 * `dryRun` answers what would be written without writing. For a task the written file is journaled as created
 * (created.ts): undo_task moves it into the task's trash, and puts back the .strm it replaced.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAudioName } from '@tagsonic/core/files';
import type { MediaRoots } from '@tagsonic/core/media';
import type { Store } from '@tagsonic/core/store';
import { strmKey, strmStreamUrl } from '@tagsonic/core/strm';
import { bytesDigest, type TagJournal } from '@tagsonic/core/tags';
import type { HostFunction } from '../../plugin-host/index.ts';
import { placeCreated } from './created.ts';
import { asPluginError, denied, invalidArgument, optionsOf, stringField } from './args.ts';

export function strmCapability(roots: MediaRoots, store: Store, access: 'read' | 'write', journal: TagJournal | null = null): Record<string, HostFunction> {
  if (access !== 'write') return {};
  return {
    writeStrm: async (args, call) => {
      try {
        const options = optionsOf(args, 'files.writeStrm');
        const audio = await roots.resolve(stringField(options, 'path', 'files.writeStrm'));
        if (!isAudioName(audio.path)) throw invalidArgument(`files.writeStrm: ${path.basename(audio.path)} is not an audio file`);
        const sign = options.sign === true;
        let content = audio.path;
        if (sign) {
          const origin = typeof options.origin === 'string' ? options.origin : '';
          if (!/^https?:\/\/[^/\s?#]+$/.test(origin.replace(/\/+$/, ''))) throw invalidArgument('files.writeStrm: a signed link needs the server\'s origin (http(s)://host[:port])');
          content = strmStreamUrl(origin, await strmKey(store), audio.path);
        }
        const relative = path.relative(audio.root.dir, audio.path);
        const stem = relative.slice(0, relative.length - path.extname(relative).length);
        const dirRaw = typeof options.dir === 'string' && options.dir.trim() !== '' ? options.dir.trim() : null;
        const base = dirRaw ? (await roots.resolve(dirRaw, { mustExist: false })).path : audio.root.dir;
        const resolved = await roots.resolve(path.join(base, `${stem}.strm`), { mustExist: false });
        const target = resolved.path;
        // Hidden folders (the trash, a NAS's own) and hidden names are never written into.
        if (path.relative(resolved.root.dir, target).split(path.sep).some((s) => s.startsWith('.'))) throw denied('files.writeStrm: hidden folders and names are not written');
        const before = await readFile(target, 'utf8').catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return null;
          throw e;
        });
        const status = before === null ? 'created' : before === content ? 'unchanged' : 'updated';
        if (options.dryRun !== true && status !== 'unchanged') {
          await mkdir(path.dirname(target), { recursive: true });
          // Whole or nothing: a player never reads half a link.
          const temp = path.join(path.dirname(target), `.${path.basename(target)}.tagsonic-${process.pid}-${Date.now()}`);
          await writeFile(temp, content, 'utf8');
          const digest = async () => bytesDigest(Buffer.from(content, 'utf8'));
          await placeCreated(roots, journal, call, { file: target, digest, source: audio.path, replace: before !== null }, () => rename(temp, target))
            .finally(() => rm(temp, { force: true }));
        }
        return { path: target, content, before, status };
      } catch (error) {
        throw asPluginError(error);
      }
    },
  };
}
