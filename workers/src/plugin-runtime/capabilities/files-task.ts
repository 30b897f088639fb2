/**
 * `caps.files.move` of an audio file for a task (a batch action's item: the invocation carries the task, the
 * plugin cannot forge it) goes through core's journaled `moveTrack`: the journal records the move under the task
 * id with the actor `plugin:<id>`, so `undo_task` moves the track back, and a worker that died after the move
 * leaves a committed entry from which the engine settles the item instead of running it again. `moveTrack` also
 * never replaces an existing file (link, then unlink) and carries the track's same-name `.lrc` along.
 *
 * Anything else — no task, a file that is not audio (covers, `.lrc` moved on their own), `overwrite: true`, or
 * another file system (link cannot cross devices) — is the plain move of `files.ts`, which is not journaled.
 */
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { TagsonicError, isTagsonicError } from '@tagsonic/core/errors';
import { isAudioName } from '@tagsonic/core/files';
import type { MediaRoots } from '@tagsonic/core/media';
import { moveTrack, type TagJournal } from '@tagsonic/core/tags';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, CONFLICT, optionsOf, stringField } from './args.ts';

export function taskAwareMove(pluginId: string, roots: MediaRoots, journal: TagJournal, plainMove: HostFunction): HostFunction {
  return async (args, call) => {
    if (!call?.task) return plainMove(args, call);
    try {
      const options = optionsOf(args, 'files.move');
      const from = await roots.resolve(stringField(options, 'from', 'files.move'));
      if (options.overwrite === true || !isAudioName(path.basename(from.path)) || !(await lstat(from.path)).isFile()) return await plainMove(args, call);
      const to = await roots.resolve(stringField(options, 'to', 'files.move'), { mustExist: false });
      if (from.path === to.path) return { path: to.path };
      if (to.exists) throw new TagsonicError('conflict', CONFLICT, `files.move: ${String(options.to)} already exists`);
      await mkdir(path.dirname(to.path), { recursive: true });
      try {
        await moveTrack(from.path, to.path, { journal, actor: `plugin:${pluginId}`, taskId: call.task.taskId, reason: `plugin ${pluginId}` });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EXDEV') return await plainMove(args, call);
        if (isTagsonicError(error) && error.code === 'TAGSONIC_ERR_FILES_NAME_TAKEN') {
          throw new TagsonicError('conflict', CONFLICT, `files.move: ${String(options.to)} already exists`);
        }
        throw error;
      }
      return { path: to.path };
    } catch (error) {
      throw asPluginError(error);
    }
  };
}
