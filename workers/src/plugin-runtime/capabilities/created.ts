/**
 * The files a capability creates for a task (ffmpeg's converted and cut tracks, .strm files, the batch edit's
 * .lrc and cover.jpg, `files.copy`), journaled through core's `createFile`, so that `undo_task` takes them away
 * again (into the task's trash) and puts back a file one of them replaced. The invocation carries the task; the
 * plugin cannot forge it. The actor is `plugin:<id>`, as for the task's moves and tag writes. Without a task the
 * file is simply put in place, as before.
 */
import path from 'node:path';
import type { MediaRoots } from '@tagsonic/core/media';
import { createFile, type FileDigest, type TagJournal } from '@tagsonic/core/tags';
import { TRASH_DIR } from '@tagsonic/core/tasks';
import type { HostCall } from '../../plugin-host/index.ts';

/**
 * Runs `place`, which puts `file` (a real path inside the roots) in place, journaled when `call` works for a
 * task and a journal is there (tools and tests may give none); `digest` tells what will land (only asked then).
 * `replace`: a file already at `file` is replaced (it goes to the task's trash first, and comes back on
 * undo); otherwise `place` must not replace anything.
 */
export async function placeCreated(
  roots: MediaRoots,
  journal: TagJournal | null,
  call: HostCall | undefined,
  target: { file: string; digest: () => Promise<FileDigest>; source?: string | null; replace?: boolean },
  place: () => Promise<void>,
): Promise<void> {
  const task = call?.task;
  const root = roots.rootOf(target.file);
  if (!task || !journal || !root) return place();
  await createFile(
    {
      path: target.file,
      file: await target.digest(),
      trashDir: path.join(root.dir, TRASH_DIR, task.taskId),
      relative: path.relative(root.dir, target.file),
      source: target.source ?? null,
      replace: target.replace === true,
    },
    place,
    { journal, actor: `plugin:${call.pluginId}`, taskId: task.taskId, ...(task.itemId ? { itemId: task.itemId } : {}), reason: `plugin ${call.pluginId}` },
  );
}
