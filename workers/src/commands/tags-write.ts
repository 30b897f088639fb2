import type { Delivery } from '@tagsonic/core/bus';
import type { MediaRoots } from '@tagsonic/core/media';
import type { ItemSettler, Settlement, Tasks } from '@tagsonic/core/tasks';
import { NOT_RESUMABLE, SUBJECTS } from '@tagsonic/core/tasks';
import type { Bus } from '@tagsonic/core/bus';
import { isTagsonicError } from '@tagsonic/core/errors';
import type { TagEdit, TagJournal, TagValues, TagWriterPool } from '@tagsonic/core/tags';

/** Payload of `tagsonic.cmd.tags.write`: one file of a "write tags" task. */
export interface TagsWriteCommand {
  taskId: string;
  itemId: string;
  path: string;
  actor: string;
  fields?: TagValues;
  /** Base64 picture to embed, or null to remove the artwork; absent leaves it alone. */
  artwork?: { mime: string; base64: string } | null;
}

export interface TagsWriteDeps {
  bus: Bus;
  tasks: Tasks;
  roots: MediaRoots;
  journal: TagJournal;
  /** Writer threads: parsing, rendering and verification run on both cores. */
  writers: TagWriterPool;
}

/**
 * Writes one file's tags through the safe-write protocol and settles the task item. Idempotent:
 * a redelivered command for a finished item does nothing; a repeated write of the same values is a
 * no-op in the engine. Errors about the file itself (bad path, corrupt file) fail the item at once;
 * anything else is thrown so the bus retries it.
 */
export function tagsWriteHandler(deps: TagsWriteDeps) {
  return async (delivery: Delivery<TagsWriteCommand>): Promise<void> => {
    const cmd = delivery.payload;
    const item = await deps.tasks.startItem(cmd.itemId);
    if (!item) return;
    let path: string;
    try {
      // Workers re-check every path: the gateway's check does not cover files moved since.
      path = (await deps.roots.resolve(cmd.path)).path;
      const edit: TagEdit = { fields: cmd.fields ?? {} };
      if (cmd.artwork === null) edit.artwork = null;
      else if (cmd.artwork) edit.artwork = { mime: cmd.artwork.mime, data: Buffer.from(cmd.artwork.base64, 'base64') };
      const result = await deps.writers.write(path, edit, { journal: deps.journal, actor: cmd.actor, taskId: cmd.taskId });
      await deps.tasks.finishItem(cmd.itemId, {
        status: 'success',
        result: { writeId: result.writeId, changed: result.changed },
      });
      await deps.bus.publish(SUBJECTS.trackUpdated, { path, taskId: cmd.taskId, writeId: result.writeId });
    } catch (e) {
      if (isTagsonicError(e) && e.kind !== 'unavailable' && e.kind !== 'internal') {
        // The code lets the dashboard say it in the interface language; the message stays for API users.
        await deps.tasks.finishItem(cmd.itemId, { status: 'fail', error: e.message, errorCode: e.code });
        return;
      }
      throw e;
    }
  };
}

/**
 * Settles a `tags.write` task a dead process left unfinished: an item whose write the journal
 * committed (journal recovery has settled the pending entries first) succeeded; the others are
 * resumed, since writing the same values again is harmless, unless their command or their file is
 * gone, which fails them with the reason.
 */
export function tagsWriteSettler(deps: Pick<TagsWriteDeps, 'roots' | 'journal'>): ItemSettler {
  return async (task) => {
    const committed = new Map<string, { writeId: string; changed: unknown }>();
    for (const entry of await deps.journal.listByTask(task._id)) {
      if (entry.kind === 'move' || entry.undoOf) continue;
      if (entry.state === 'committed' || entry.state === 'undoing' || entry.state === 'undone') {
        committed.set(entry.path, { writeId: entry._id, changed: entry.changed });
      }
    }
    return async (item): Promise<Settlement> => {
      const done = item.path ? committed.get(item.path) : undefined;
      if (done) return { status: 'success', result: { writeId: done.writeId, changed: done.changed } };
      const cmd = item.payload as Partial<TagsWriteCommand> | null;
      if (!cmd || typeof cmd.path !== 'string' || typeof cmd.actor !== 'string') {
        return { status: 'fail', errorCode: NOT_RESUMABLE, error: 'Interrupted by a crash, and its saved command is incomplete, so it cannot be resumed.' };
      }
      try {
        await deps.roots.resolve(cmd.path);
      } catch (e) {
        if (!isTagsonicError(e)) throw e;
        // The file's own reason (gone, outside the roots…) is what the user can act on.
        return { status: 'fail', errorCode: e.code, error: `Interrupted by a crash and cannot be resumed: ${e.message}` };
      }
      return { status: 'resume' };
    };
  };
}
