/**
 * What a batch action's file effects become when the invocation works for a task.
 *
 * `caps.files.move` of an audio file for a task (a batch action's item: the invocation carries the task, the
 * plugin cannot forge it) goes through core's journaled `moveTrack`: the journal records the move under the task
 * id with the actor `plugin:<id>`, so `undo_task` moves the track back, and a worker that died after the move
 * leaves a committed entry from which the engine settles the item instead of running it again. `moveTrack` also
 * never replaces an existing file (link, then unlink) and carries the track's same-name `.lrc` along.
 *
 * A file that is not audio (a cover, an `.lrc` moved on its own, a CUE sheet) goes through core's `moveFile`, the
 * same journaled move without tags or followers. Anything else — no task, `overwrite: true`, or another file
 * system (link cannot cross devices) — is the plain move of `files.ts`, which is not journaled.
 *
 * `caps.files.delete` for a task deletes nothing: the file goes into its media root's trash
 * (`.tagsonic-trash/<task>/<path>`, core/tasks trash.ts, emptied after 30 days by the workers) by a journaled
 * move — `moveTrack` for an audio file (with its `.lrc`), `moveFile` for any other — so undo_task brings it back.
 * Without a task it is the plain unlink.
 *
 * `caps.files.copy` for a task journals the copy as a created file (created.ts): undo_task moves it into the
 * task's trash, and puts back a file it replaced (`overwrite: true`; that file goes to the trash first).
 */
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { TagsonicError, isTagsonicError } from '@tagsonic/core/errors';
import { isAudioName } from '@tagsonic/core/files';
import type { MediaRoots } from '@tagsonic/core/media';
import { fileDigest, moveFile, moveTrack, type TagJournal } from '@tagsonic/core/tags';
import { inTrash, trashPathFor } from '@tagsonic/core/tasks';
import type { HostFunction } from '../../plugin-host/index.ts';
import { placeCreated } from './created.ts';
import { asPluginError, CONFLICT, denied, invalidArgument, optionsOf, stringField } from './args.ts';

export function taskAwareMove(pluginId: string, roots: MediaRoots, journal: TagJournal, plainMove: HostFunction): HostFunction {
  return async (args, call) => {
    if (!call?.task) return plainMove(args, call);
    try {
      const options = optionsOf(args, 'files.move');
      const from = await roots.resolve(stringField(options, 'from', 'files.move'));
      if (options.overwrite === true || !(await lstat(from.path)).isFile()) return await plainMove(args, call);
      const to = await roots.resolve(stringField(options, 'to', 'files.move'), { mustExist: false });
      if (from.path === to.path) return { path: to.path };
      if (to.exists) throw new TagsonicError('conflict', CONFLICT, `files.move: ${String(options.to)} already exists`);
      await mkdir(path.dirname(to.path), { recursive: true });
      const move = isAudioName(path.basename(from.path)) ? moveTrack : moveFile;
      try {
        await move(from.path, to.path, { journal, actor: `plugin:${pluginId}`, taskId: call.task.taskId, ...(call.task.itemId ? { itemId: call.task.itemId } : {}), reason: `plugin ${pluginId}` });
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
      const context = { journal, actor: `plugin:${pluginId}`, taskId: call.task.taskId, ...(call.task.itemId ? { itemId: call.task.itemId } : {}), reason: `plugin ${pluginId}: delete` };
      if (isAudioName(path.basename(target.path))) {
        await moveTrack(target.path, to, context);
      } else {
        // One task's trash holds one file per path, so a taken name means this very file was trashed before.
        if (await lstat(to).then(() => true, () => false)) throw new TagsonicError('conflict', CONFLICT, `files.delete: ${path.basename(to)} is in this task's trash already`);
        await moveFile(target.path, to, context);
      }
      return { path: target.path };
    } catch (error) {
      throw asPluginError(error);
    }
  };
}

export function taskAwareCopy(roots: MediaRoots, journal: TagJournal, plainCopy: HostFunction): HostFunction {
  return async (args, call) => {
    if (!call?.task) return plainCopy(args, call);
    try {
      const options = optionsOf(args, 'files.copy');
      const from = await roots.resolve(stringField(options, 'from', 'files.copy'));
      const to = await roots.resolve(stringField(options, 'to', 'files.copy'), { mustExist: false });
      // A folder, a copy onto itself, a taken name without overwrite, a folder in the way: the plain copy's answers.
      if (from.path === to.path || !(await lstat(from.path)).isFile()) return await plainCopy(args, call);
      if (to.exists && (options.overwrite !== true || !(await lstat(to.path)).isFile())) return await plainCopy(args, call);
      let copied: unknown;
      const digest = async () => (await fileDigest(from.path))!;
      await placeCreated(roots, journal, call, { file: to.path, digest, source: from.path, replace: to.exists }, async () => {
        copied = await plainCopy(args, call);
      });
      return copied;
    } catch (error) {
      throw asPluginError(error);
    }
  };
}
