/**
 * What a batch action's file effects become when the invocation works for a task.
 *
 * `caps.files.move` of an audio file for a task (a batch action's item: the invocation carries the task, the
 * plugin cannot forge it) goes through core's journaled `moveTrack`: the journal records the move under the task
 * id with the actor `plugin:<id>`, so `undo_task` moves the track back, and a worker that died after the move
 * leaves a committed entry from which the engine settles the item instead of running it again. `moveTrack` also
 * never replaces an existing file (link, then unlink) and carries the track's same-name `.lrc` along.
 *
 * Anything else — no task, a file that is not audio (covers, `.lrc` moved on their own), `overwrite: true`, or
 * another file system (link cannot cross devices) — is the plain move of `files.ts`, which is not journaled.
 *
 * `caps.files.delete` for a task deletes nothing: the file goes into its media root's trash
 * (`.tagsonic-trash/<task>/<path>`, core/tasks trash.ts, emptied after 30 days by the workers) — an audio file
 * through `moveTrack` (journaled: undo_task brings it back, with its `.lrc`), any other file by a rename (kept in
 * the trash, restorable by hand; the journal only knows audio). Without a task it is the plain unlink.
 */
import { lstat, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { TagsonicError, isTagsonicError } from '@tagsonic/core/errors';
import { isAudioName } from '@tagsonic/core/files';
import type { MediaRoots } from '@tagsonic/core/media';
import { moveTrack, type TagJournal } from '@tagsonic/core/tags';
import { inTrash, trashPathFor } from '@tagsonic/core/tasks';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, CONFLICT, denied, invalidArgument, optionsOf, stringField } from './args.ts';

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

export function taskAwareDelete(pluginId: string, roots: MediaRoots, journal: TagJournal, plainDelete: HostFunction): HostFunction {
  return async (args, call) => {
    if (!call?.task) return plainDelete(args, call);
    try {
      const options = optionsOf(args, 'files.delete');
      const target = await roots.resolve(stringField(options, 'path', 'files.delete'));
      if (target.path === target.root.dir) throw denied('files.delete: a media folder itself cannot be deleted');
      if ((await lstat(target.path)).isDirectory()) throw invalidArgument(`files.delete: only files can be deleted, ${String(options.path)} is a folder`);
      if (inTrash(target.path)) throw invalidArgument(`files.delete: ${path.basename(target.path)} is in the trash already`);
      const to = trashPathFor(roots, target.path, call.task.taskId);
      await mkdir(path.dirname(to), { recursive: true });
      if (isAudioName(path.basename(target.path))) {
        await moveTrack(target.path, to, { journal, actor: `plugin:${pluginId}`, taskId: call.task.taskId, reason: `plugin ${pluginId}: delete` });
      } else {
        // One task's trash holds one file per path, so a taken name means this very file was trashed before.
        if (await lstat(to).then(() => true, () => false)) throw new TagsonicError('conflict', CONFLICT, `files.delete: ${path.basename(to)} is in this task's trash already`);
        await rename(target.path, to);
      }
      return { path: target.path };
    } catch (error) {
      throw asPluginError(error);
    }
  };
}
