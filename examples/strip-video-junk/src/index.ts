/**
 * A batch action (an example of one written outside Tagsonic): removes the words video sites add to song
 * titles — `(Official Video)`, `[Official Music Video]`, `(Lyric Video)`, `(Official Audio)`, `(HD)`,
 * `(Visualizer)` … — from the selected files, and from the audio files inside selected folders.
 *
 * Titles are written through `caps.tags.write`, the host's journaled tag engine, so every change is undoable
 * like an edit in the editor. Only bracketed junk is removed, so a song really called "Video Killed the Radio
 * Star" keeps its name. With `dry_run` nothing is written and the report says what would change. A file that
 * fails is reported in `items` and the run goes on.
 */
import { defineBatchAction, type BatchActionItem, type Manifest } from '@tagsonic/sdk';

/** manifest.json's grants, so `caps` is typed by them: tags read+write, files read (list/stat). */
type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string }; files: { access: 'read'; reason: string } } };

/** The audio formats the tag engine reads and writes. */
const AUDIO = /\.(mp3|flac|m4a|mp4|aac|ogg|opus|wav|aiff?|wma|ape|wv)$/i;

/** Folders are walked this deep, and at most this many files are taken from one selection. */
const MAX_DEPTH = 8;
const MAX_FILES = 5000;

/**
 * One bracketed group, `(…)` or `[…]`, whose whole content is junk, in any case: an optional "official", an
 * optional "music" or "lyric(s)", then video, audio, visualizer, HD, HQ, 4K or MV. A group with anything else in
 * it — "(Remastered 2011)", "(Live Video Edit)" — is kept: it may be part of the song's name.
 */
const JUNK = /\s*[([]\s*(?:official\s+)?(?:(?:music|lyrics?)\s+)?(?:video|audio|visuali[sz]er|hd|hq|4k|mv)\s*[)\]]/gi;

/** The title without its junk groups and the spaces they leave; unchanged when there are none. */
function stripJunk(title: string): string {
  return title.replace(JUNK, '').replace(/\s{2,}/g, ' ').trim();
}

export default defineBatchAction<Grants>({
  async run({ paths, options }, caps) {
    const dryRun = options.dry_run === true;
    const files: string[] = [];
    const items: BatchActionItem[] = [];

    const walk = async (path: string, depth: number): Promise<void> => {
      if (files.length >= MAX_FILES) return;
      const entry = await caps.files.stat({ path });
      if (!entry) return void items.push({ path, status: 'fail', reason: 'not found' });
      if (entry.type === 'file') return void (AUDIO.test(entry.name) ? files.push(entry.path) : undefined);
      if (depth >= MAX_DEPTH) return;
      const { entries } = await caps.files.list({ path: entry.path });
      for (const child of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (child.type === 'directory') await walk(child.path, depth + 1);
        else if (AUDIO.test(child.name) && files.length < MAX_FILES) files.push(child.path);
      }
    };
    for (const path of paths) {
      try {
        await walk(path, 0);
      } catch (error) {
        items.push({ path, status: 'fail', reason: (error as Error).message });
      }
    }

    for (const [i, path] of files.entries()) {
      try {
        const { title } = await caps.tags.read({ path });
        const cleaned = title ? stripJunk(title) : '';
        if (!title) items.push({ path, status: 'skip', reason: 'no title' });
        else if (cleaned === title) items.push({ path, status: 'skip', reason: 'nothing to strip' });
        else if (!cleaned) items.push({ path, status: 'skip', reason: `"${title}" would become empty` });
        else {
          if (!dryRun) await caps.tags.write({ path, tags: { title: cleaned } });
          items.push({ path, status: 'success', reason: `"${title}" → "${cleaned}"` });
        }
      } catch (error) {
        items.push({ path, status: 'fail', reason: (error as Error).message });
      }
      caps.progress({ done: i + 1, total: files.length, message: path });
    }

    const changed = items.filter((item) => item.status === 'success').length;
    return { items, message: `${changed} of ${files.length} title${files.length === 1 ? '' : 's'} ${dryRun ? 'would be cleaned' : 'cleaned'}` };
  },
});
