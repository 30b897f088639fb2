/**
 * 手动修改 (batchUpdateId3): the batch side bar's manual edit. Each selected track gets the filled-in fields —
 * as typed, or as a `${var}` template rendered for that track by the host (`caps.tags.render`, core's templates:
 * the same variables and results as the editor's save), `${null}` clearing the field. Options import the track's
 * `.lrc` as its lyrics and its folder's cover as its cover, and save the lyrics as `.lrc` and the cover as the
 * folder's `cover.jpg` after the tags are written (an old different file goes to the trash, never lost). 翻译歌词
 * translates the lyrics the edit leaves through `caps.llm` (the editor's translation, time tags kept) before the
 * write, so the saved .lrc holds the translation too.
 *
 * One track per item (`plan` walks the selection like the host would, after refusing a bad dialog once). Tag
 * writes go through `caps.tags.write`: journaled under the task, undone by undo_task. A dry run lists the tag
 * changes without writing; the side files it would save are in its report.
 */
import { defineBatchAction, PluginError, type Artwork, type BatchChange, type BatchItem, type FileEntry, type Manifest } from '@tagsonic/sdk';
import { CLEAR, NUMBER_FIELDS, numberOf, parseOptions, tagsOf, withItemFields, type Tags } from './options.ts';

type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string }; files: { access: 'read'; reason: string }; llm: { reason: string } } };

const AUDIO = /\.(mp3|flac|m4a|m4b|aac|alac|ogg|oga|opus|spx|wav|aif|aiff|aifc|ape|wv|wma|asf|mpc|tta|dsf|dff)$/i;
const MAX_FILES = 100_000;
const NUMBERS: ReadonlySet<string> = new Set(NUMBER_FIELDS);

const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
/** The dry run's stand-in for a translation: what will be translated, without asking the model. */
const translationPreview = (lyrics: string) => {
  const lines = lyrics.split(/\r\n?|\n/).filter((l) => l.replace(/^(\s*\[[^\]]*\])+/, '').trim() !== '').length;
  return `(translated by the language model when applied: ${lines} line${lines === 1 ? '' : 's'})`;
};
const describeArt = (art: Artwork | null) => (art ? `${art.mime} ${art.data.length} bytes` : null);
const sameArt = (a: Artwork | null, b: Artwork | null) => {
  if (!a || !b) return a === b;
  if (a.mime !== b.mime || a.data.length !== b.data.length) return false;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
};

export default defineBatchAction<Grants>({
  async plan({ paths, options }, caps) {
    // No model configured: the whole task is refused now (TAGSONIC_ERR_LLM_NOT_CONFIGURED), not every item.
    if (parseOptions(options).translateLyrics) await caps.llm.check();
    const files = new Set<string>();
    const walk = async (entry: FileEntry): Promise<void> => {
      if (entry.type === 'file') {
        if (!AUDIO.test(entry.name)) return;
        if (files.add(entry.path).size > MAX_FILES) throw new PluginError('TAGSONIC_ERR_PLUGIN_LIMIT', `more than ${MAX_FILES} audio files are selected; select fewer folders`);
        return;
      }
      // Hidden entries (the trash, .git …) are not library files, as in the tree and the scan.
      for (const child of (await caps.files.list({ path: entry.path })).entries) if (!child.name.startsWith('.')) await walk(child);
    };
    for (const path of paths) {
      const entry = await caps.files.stat({ path });
      if (entry) await walk(entry);
    }
    const items: BatchItem[] = [...files].sort().map((path) => ({ key: path, paths: [path] }));
    return { items };
  },

  async runItem({ item, options, dryRun }, caps) {
    const edit = parseOptions(withItemFields(options, item.data));
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');
    const track = await caps.tags.read({ path, artwork: true });
    const notes: string[] = [];

    const next: Tags = {};
    try {
      const entries = tagsOf(edit.fields);
      const templated = entries.filter(([, typed]) => typed !== CLEAR && typed.includes('${'));
      const rendered = templated.length ? await caps.tags.render({ path: track.path, templates: templated.map(([, t]) => t) }) : [];
      const renderedOf = new Map(templated.map(([field], i) => [field, rendered[i]!]));
      for (const [field, typed] of entries) {
        const text = typed === CLEAR ? null : renderedOf.get(field) ?? typed;
        if (NUMBERS.has(field)) {
          const total = field === 'tracknumber' ? 'totaltracks' : 'totaldiscs';
          if (text === null || text.trim() === '') next[field as 'tracknumber'] = null;
          else {
            const n = numberOf(field, text);
            next[field as 'tracknumber'] = n.value;
            if (n.total !== null) next[total] = n.total;
          }
        } else {
          next[field as 'title'] = text === '' ? null : text;
        }
      }
    } catch (error) {
      // A template or number that does not fit this track (the dialog itself was checked when planned).
      return { status: 'fail', reason: `${nameOf(track.path)}: ${(error as Error).message}` };
    }
    if (edit.importLyrics) {
      const lrc = await caps.tags.lyricsFile({ path: track.path });
      if (lrc === null) notes.push(`no .lrc beside ${nameOf(track.path)} to import`);
      else next.lyrics = lrc;
    }
    if (edit.translateLyrics) {
      // What this edit leaves as the lyrics (typed, imported from the .lrc, or the track's own), translated as the
      // editor's 翻译歌词 then 复制到歌词 do: each line behind its original time tags.
      const source = next.lyrics !== undefined ? next.lyrics : track.lyrics;
      if (typeof source !== 'string' || source.trim() === '') notes.push(`${nameOf(track.path)} has no lyrics to translate`);
      // A preview spends no model quota and stays what its applied run re-checks: the translation is made when applied.
      else if (dryRun) next.lyrics = translationPreview(source);
      // The model's failures (not configured, unreachable …) fail the item with their code and message.
      else next.lyrics = await caps.llm.translateLyric({ lyrics: source });
    }
    if (edit.artwork !== undefined) next.artwork = edit.artwork;
    else if (edit.importCover) {
      const cover = await caps.tags.folderCover({ path: track.path });
      if (cover === null) notes.push(`the folder of ${nameOf(track.path)} has no cover to import`);
      else next.artwork = cover;
    }

    const tags: Tags = {};
    const changes: BatchChange[] = [];
    for (const [field, after] of Object.entries(next) as Array<[keyof Tags, Tags[keyof Tags]]>) {
      if (field === 'artwork') {
        const art = after as Artwork | null;
        if (sameArt(track.artwork ?? null, art)) continue;
        tags.artwork = art;
        changes.push({ path: track.path, kind: 'tags', field: 'album_img', before: describeArt(track.artwork ?? null), after: describeArt(art) });
        continue;
      }
      const before = track[field] as string | number | null;
      if (before === after) continue;
      (tags as Record<string, unknown>)[field] = after;
      changes.push({ path: track.path, kind: 'tags', field, before: before === null ? null : String(before), after: after === null || after === undefined ? null : String(after) });
    }

    const side: Record<string, string | null> = {};
    if (!dryRun) {
      if (changes.length) await caps.tags.write({ path: track.path, tags });
      // After the tags: the files beside hold what the track now holds, as the editor's save does.
      if (edit.saveLyrics) {
        const saved = await caps.tags.writeSideFile({ path: track.path, kind: 'lyrics' });
        if (saved.written) side.lyrics_file = saved.path;
        else if (saved.path === null) notes.push(`${nameOf(track.path)} has no lyrics to save as .lrc`);
      }
      if (edit.saveCover) {
        const saved = await caps.tags.writeSideFile({ path: track.path, kind: 'cover' });
        if (saved.written) side.cover_file = saved.path;
        else if (saved.path === null) notes.push(`${nameOf(track.path)} has no cover to save as cover.jpg`);
      }
    } else {
      if (edit.saveLyrics) side.lyrics_file = (next.lyrics !== undefined ? next.lyrics : track.lyrics) ? track.path.replace(/\.[^./]+$/, '.lrc') : null;
      if (edit.saveCover) side.cover_file = (next.artwork !== undefined ? next.artwork : track.artwork) ? `${track.path.slice(0, track.path.lastIndexOf('/'))}/cover.jpg` : null;
    }
    const report = { ...side, ...(notes.length ? { notes } : {}) };
    const wroteSide = Object.values(side).some((p) => p !== null);
    if (!changes.length && !wroteSide) return { status: 'skip', reason: notes.length ? notes.join('; ') : 'the fields already hold these values', report };
    return { status: 'success', changes, report, ...(notes.length ? { reason: notes.join('; ') } : {}) };
  },
});
