/**
 * `caps.tags`: read and write a track's tags through core's tag engine. A write is the same journaled,
 * verified write as an edit in the editor (`safeWriteTags`: temp file → verify → rename, before/after in the
 * journal), with `plugin:<id>` as its actor, so the user can undo what a plugin wrote; a write made for a task
 * (a batch action's item) carries the task's id, so undoing the task undoes it. Paths are confined
 * to the media roots on every call; `write` exists only with `tags: write` and re-checks the grant.
 *
 * With the worker's tag threads (`threads`), a read parses on a reader thread and a write prepares, renders and
 * verifies on a writer thread (createTagWriterPool: the same protocol, journal entry and errors as safeWriteTags),
 * so a batch action's items keep both cores busy instead of queueing their TagLib work on the worker's main
 * thread, where every sandbox, bus command and store write of the task also runs. Without them (a plugin loaded
 * outside a worker) both run here.
 */
import type { MediaRoots } from '@tagsonic/core/media';
import { EDITABLE_FIELDS, readTags, safeWriteTags, type ReadOptions, type ReadResult, type TagEdit, type TagField, type TagJournal, type TagWriterPool } from '@tagsonic/core/tags';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, denied, invalidArgument, optionsOf, stringField } from './args.ts';

const NUMBER_FIELDS: ReadonlySet<TagField> = new Set(['tracknumber', 'totaltracks', 'discnumber', 'totaldiscs']);
const FIELDS: ReadonlySet<string> = new Set(EDITABLE_FIELDS);
const ARTWORK_MIMES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png']);

/** The worker's tag threads a plugin's reads and writes run on (both optional: absent, they run on this thread). */
export interface TagThreads {
  readers?: { read(path: string, options?: ReadOptions): Promise<ReadResult> };
  writers?: Pick<TagWriterPool, 'write'>;
}

export function tagsCapability(pluginId: string, roots: MediaRoots, journal: TagJournal, access: 'read' | 'write', threads: TagThreads = {}): Record<string, HostFunction> {
  const readFile = (path: string, artwork: boolean) => (threads.readers ? threads.readers.read(path, { artwork }) : readTags(path, { artwork }));
  const writeFile: typeof safeWriteTags = threads.writers ? (path, edit, context) => threads.writers!.write(path, edit, context) : safeWriteTags;
  const read: HostFunction = async (args) => {
    try {
      const options = optionsOf(args, 'tags.read');
      const target = await roots.resolve(stringField(options, 'path', 'tags.read'));
      // The cover's bytes only when asked: each concurrent item's copy lives in the plugin's one isolate.
      const wantsArtwork = options.artwork === true;
      const result = await readFile(target.path, wantsArtwork);
      const tags: Record<string, unknown> = {};
      for (const field of EDITABLE_FIELDS) {
        const value = result.tags.fields[field];
        tags[field] = NUMBER_FIELDS.has(field) ? leadingNumber(value) : value;
      }
      return {
        ...tags,
        ...(wantsArtwork ? { artwork: result.artwork && ARTWORK_MIMES.has(result.artwork.mime) ? { mime: result.artwork.mime, data: result.artwork.data } : null } : {}),
        artworkInfo: artworkInfoOf(result),
        path: target.path,
        duration: result.audio.duration,
        format: result.audio.format,
      };
    } catch (error) {
      throw asPluginError(error);
    }
  };
  if (access !== 'write') return { read };

  const write: HostFunction = async (args, call) => {
    if (access !== 'write') throw denied('tags.write needs the tags write grant');
    const options = optionsOf(args, 'tags.write');
    try {
      const target = await roots.resolve(stringField(options, 'path', 'tags.write'));
      const edit = editOf(options.tags);
      await writeFile(target.path, edit, { journal, actor: `plugin:${pluginId}`, reason: `plugin ${pluginId}`, ...(call?.task ? { taskId: call.task.taskId, ...(call.task.itemId ? { itemId: call.task.itemId } : {}) } : {}) });
      return { path: target.path };
    } catch (error) {
      throw asPluginError(error);
    }
  };
  return { read, write };
}

/** The SDK's `Partial<TrackTags>` → the engine's edit; numbers become their text, `null` removes a tag. */
function editOf(value: unknown): TagEdit {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidArgument('tags.write: tags must be an object of tag fields');
  const fields: Record<string, string | null> = {};
  const edit: TagEdit = { fields };
  for (const [key, raw] of Object.entries(value)) {
    if (key === 'artwork') {
      edit.artwork = artworkOf(raw);
    } else if (!FIELDS.has(key)) {
      throw invalidArgument(`tags.write: unknown tag field ${JSON.stringify(key)}`);
    } else if (raw === null || typeof raw === 'string') {
      fields[key] = raw;
    } else if (typeof raw === 'number' && Number.isFinite(raw)) {
      fields[key] = String(raw);
    } else {
      throw invalidArgument(`tags.write: ${key} must be a string, a number or null`);
    }
  }
  return edit;
}

function artworkOf(raw: unknown): TagEdit['artwork'] {
  if (raw === null) return null;
  const artwork = raw as { mime?: unknown; data?: unknown } | undefined;
  if (typeof artwork !== 'object' || !ARTWORK_MIMES.has(artwork.mime as string) || !(artwork.data instanceof Uint8Array)) {
    throw invalidArgument('tags.write: artwork must be null or { mime: "image/jpeg" | "image/png", data: Uint8Array }');
  }
  return { mime: artwork.mime as string, data: artwork.data };
}

function leadingNumber(value: string | null): number | null {
  const match = value === null ? null : /^\s*(\d+)/.exec(value);
  return match ? Number(match[1]) : null;
}

/** The cover's type and size as the read saw it, without its bytes. */
function artworkInfoOf(result: ReadResult): { mime: string; size: number } | null {
  const info = result.tags.artwork;
  return info ? { mime: info.mime, size: info.size } : null;
}
