/**
 * What the manual batch edit (手动修改) needs beyond `tags.read`/`tags.write`, done by the host with core's own
 * code so a batch edit behaves exactly like the editor's save (gateway/src/routes/update-id3.ts):
 * - `tags.render` (read half): `${var}` templates for one track, with core/src/templates (the variables of the
 *   file's current tags and path; `first_artist_letter` needs the pinyin tables a sandbox does not have).
 * - `tags.lyricsFile` / `tags.folderCover` (read half): the `.lrc` beside a track, the cover picture of its folder
 *   (cover.jpg, folder.jpg …), for the import options.
 * - `tags.writeSideFile` (write half): the track's current lyrics into its `.lrc`, or its embedded cover into the
 *   folder's `cover.jpg`. The same bytes already there are left alone; different ones are never lost: inside a
 *   task the written file is journaled as created (created.ts) and the old file first goes into the media root's
 *   trash (`.tagsonic-trash/<task>/…`, kept 30 days; the user's own file there, a file the same task wrote before
 *   under `.replaced/<write id>/`), so undo_task takes the new file away and puts the old one back.
 */
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRoots } from '@tagsonic/core/media';
import { lyricsPathFor, readFolderCover, readLyricsFile, toJpeg, writeFolderCover, writeLyricsFile } from '@tagsonic/core/files';
import { bytesDigest, readArtwork, readTags, type TagJournal } from '@tagsonic/core/tags';
import { renderTemplate, templateVariables } from '@tagsonic/core/templates';
import type { HostFunction } from '../../plugin-host/index.ts';
import { placeCreated } from './created.ts';
import { asPluginError, denied, invalidArgument, optionsOf, stringField } from './args.ts';

const MAX_TEMPLATE = 100_000;
const MAX_TEMPLATES = 50;

/**
 * One writer per side file at a time in this process: the tracks of one folder are items of one task run in
 * parallel, and each saving the folder's cover must see what the previous one wrote (the same bytes: nothing to
 * do) instead of racing it to the trash.
 */
const writing = new Map<string, Promise<unknown>>();
async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = writing.get(key) ?? Promise.resolve();
  const mine = before.then(fn, fn);
  const settled = mine.then(() => undefined, () => undefined);
  writing.set(key, settled);
  try {
    return await mine;
  } finally {
    if (writing.get(key) === settled) writing.delete(key);
  }
}

export function tagsSideCapability(roots: MediaRoots, access: 'read' | 'write', journal: TagJournal | null = null): Record<string, HostFunction> {
  const guarded = (what: string, fn: (options: Record<string, unknown>, call: Parameters<HostFunction>[1]) => Promise<unknown>): HostFunction =>
    async (args, call) => {
      try {
        return await fn(optionsOf(args, what), call);
      } catch (error) {
        throw asPluginError(error);
      }
    };
  const track = async (options: Record<string, unknown>, what: string) => (await roots.resolve(stringField(options, 'path', what))).path;

  const read: Record<string, HostFunction> = {
    render: guarded('tags.render', async (options) => {
      const file = await track(options, 'tags.render');
      const templates = options.templates;
      if (!Array.isArray(templates) || templates.length > MAX_TEMPLATES || !templates.every((t) => typeof t === 'string' && t.length <= MAX_TEMPLATE)) {
        throw invalidArgument(`tags.render: templates must be a list of at most ${MAX_TEMPLATES} texts of at most ${MAX_TEMPLATE} characters`);
      }
      if (templates.length === 0) return [];
      // One read for all the fields of an edit: a 10k-file batch edit reads each track once here, not per field.
      const vars = templateVariables(file, (await readTags(file)).tags.fields);
      return (templates as string[]).map((t) => renderTemplate(t, vars));
    }),
    lyricsFile: guarded('tags.lyricsFile', async (options) => readLyricsFile(await track(options, 'tags.lyricsFile'))),
    folderCover: guarded('tags.folderCover', async (options) => {
      const cover = await readFolderCover(path.dirname(await track(options, 'tags.folderCover')));
      if (!cover) return null;
      // Tags take JPEG or PNG; a folder.webp is converted as the editor's import does.
      if (cover.mime === 'image/jpeg' || cover.mime === 'image/png') return { mime: cover.mime, data: cover.data };
      return { mime: 'image/jpeg', data: await toJpeg(cover.data) };
    }),
  };
  if (access !== 'write') return read;

  return {
    ...read,
    writeSideFile: guarded('tags.writeSideFile', async (options, call) => {
      if (access !== 'write') throw denied('tags.writeSideFile needs the tags write grant');
      const file = await track(options, 'tags.writeSideFile');
      const kind = options.kind;
      let target: string;
      let bytes: Uint8Array;
      if (kind === 'lyrics') {
        const lyrics = (await readTags(file)).tags.fields.lyrics;
        if (!lyrics) return { path: null, written: false, replaced: false };
        target = lyricsPathFor(file);
        bytes = Buffer.from(lyrics, 'utf8');
      } else if (kind === 'cover') {
        const art = await readArtwork(file);
        if (!art) return { path: null, written: false, replaced: false };
        target = path.join(path.dirname(file), 'cover.jpg');
        bytes = await toJpeg(art.data);
      } else {
        throw invalidArgument('tags.writeSideFile: kind must be lyrics or cover');
      }
      const content = bytes;
      return oneAtATime(target, async () => {
        const old = await lstat(target).then((s) => s, () => null);
        if (old && !old.isFile()) throw invalidArgument(`tags.writeSideFile: ${path.basename(target)} exists and is not a file`);
        if (old && Buffer.from(await readFile(target)).equals(Buffer.from(content))) return { path: target, written: false, replaced: false };
        const write = async () => {
          if (kind === 'lyrics') await writeLyricsFile(file, Buffer.from(content).toString('utf8'));
          else await writeFolderCover(path.dirname(file), content);
        };
        await placeCreated(roots, journal, call, { file: target, digest: async () => bytesDigest(content), source: file, replace: old !== null }, write);
        return { path: target, written: true, replaced: old !== null };
      });
    }),
  };
}
